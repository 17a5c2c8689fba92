# Runs `gtapcc --translate-only INPUT` and compares the output with EXPECTED.
# Regenerate an expectation with: gtapcc --translate-only golden/x.cu -o golden/x.expected.cu
get_filename_component(_name ${INPUT} NAME)
get_filename_component(_dir ${OUTPUT} DIRECTORY)
file(MAKE_DIRECTORY ${_dir})
execute_process(COMMAND ${GTAPCC} --translate-only ${_name} -o ${OUTPUT}
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gtapcc failed (${rc}):\n${err}")
endif()
file(READ ${OUTPUT} got)
file(READ ${EXPECTED} want)
if(NOT got STREQUAL want)
  execute_process(COMMAND diff -u ${EXPECTED} ${OUTPUT})
  message(FATAL_ERROR "translation of ${_name} differs from ${EXPECTED}")
endif()
