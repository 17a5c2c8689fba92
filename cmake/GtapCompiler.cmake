# GtapCompiler.cmake - gtap_add_executable(): build a program that uses #pragma gtap.
#
#   gtap_add_executable(<name> SOURCES a.cu [b.cu|c.cpp ...]
#                       [TARGET gpu|host]            # default gpu; host = CPU reference executor
#                       [GTAPCC_OPTIONS opts...]     # e.g. -fgtap-no-taskwait
#                       [DEFINITIONS D=1 ...] [INCLUDE_DIRECTORIES dirs...])
#
# Every .cu source is translated by gtapcc (--translate-only) into the build tree, then
# compiled as CUDA (gpu: linked with the GPU runtime's host library) or as C++ (host). The
# translation sees the same definitions and include directories as the compile, including
# those added later with target_compile_definitions / target_include_directories.
# Works inside the gtap build tree (targets gtapcc, gtap_host) and from an installed
# package (find_package(gtap): imported gtap::gtapcc / gtap::gtap_host, or gtapcc on PATH).
include_guard(GLOBAL)

set(_GTAP_COMPILER_CMAKE_DIR ${CMAKE_CURRENT_LIST_DIR})

function(_gtap_resolve out_gtapcc out_rt_lib out_rt_inc out_host_inc)
  if(TARGET gtapcc)
    set(cc $<TARGET_FILE:gtapcc>)
  elseif(TARGET gtap::gtapcc)
    set(cc $<TARGET_FILE:gtap::gtapcc>)
  else()
    find_program(GTAPCC_EXECUTABLE gtapcc HINTS ${_GTAP_COMPILER_CMAKE_DIR}/../../../bin ENV GTAP_HOME
                 PATH_SUFFIXES bin REQUIRED)
    set(cc ${GTAPCC_EXECUTABLE})
  endif()
  if(TARGET gtap_host)
    set(lib gtap_host)
  elseif(TARGET gtap::gtap_host)
    set(lib gtap::gtap_host)
  else()
    set(lib "")
  endif()
  # include directories: the build tree's sources, or the installed include/gtap
  if(EXISTS ${_GTAP_COMPILER_CMAKE_DIR}/../src/node_runtime/include)
    get_filename_component(rt ${_GTAP_COMPILER_CMAKE_DIR}/../src/node_runtime ABSOLUTE)
    set(inc ${rt}/include)
    set(hinc ${rt}/host_target)
  else()
    get_filename_component(prefix ${_GTAP_COMPILER_CMAKE_DIR}/../../.. ABSOLUTE)
    set(inc ${prefix}/include/gtap)
    set(hinc ${prefix}/include/gtap/host_target)
  endif()
  set(${out_gtapcc} ${cc} PARENT_SCOPE)
  set(${out_rt_lib} ${lib} PARENT_SCOPE)
  set(${out_rt_inc} ${inc} PARENT_SCOPE)
  set(${out_host_inc} ${hinc} PARENT_SCOPE)
endfunction()

function(gtap_add_executable name)
  cmake_parse_arguments(ARG "" "TARGET" "SOURCES;GTAPCC_OPTIONS;DEFINITIONS;INCLUDE_DIRECTORIES" ${ARGN})
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "gtap_add_executable(${name}): SOURCES is required")
  endif()
  if(NOT ARG_TARGET)
    set(ARG_TARGET gpu)
  endif()
  if(NOT ARG_TARGET MATCHES "^(gpu|host)$")
    message(FATAL_ERROR "gtap_add_executable(${name}): TARGET must be gpu or host")
  endif()
  _gtap_resolve(cc rtlib rtinc hostinc)
  set(outdir ${CMAKE_CURRENT_BINARY_DIR}/gtapgen/${name})
  # what the compile sees, less the host target's CUDA stand-ins (the translation parses CUDA)
  set(defs "$<FILTER:$<TARGET_PROPERTY:${name},COMPILE_DEFINITIONS>,EXCLUDE,^GTAP_TARGET_HOST>")
  set(incs "$<FILTER:$<TARGET_PROPERTY:${name},INCLUDE_DIRECTORIES>,EXCLUDE,host_target/?$>")
  set(translated)
  set(plain)
  foreach(src IN LISTS ARG_SOURCES)
    get_filename_component(abs ${src} ABSOLUTE)
    if(NOT abs MATCHES "\\.cu$")
      list(APPEND plain ${abs})
      continue()
    endif()
    get_filename_component(base ${src} NAME_WE)
    if(ARG_TARGET STREQUAL "host")
      set(out ${outdir}/${base}.gtap.cpp)
      set(tgt --target=host)
    else()
      set(out ${outdir}/${base}.gtap.cu)
      set(tgt --target=gpu)
    endif()
    get_filename_component(srcdir ${abs} DIRECTORY)
    add_custom_command(OUTPUT ${out}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${outdir}
      COMMAND ${cc} --translate-only ${tgt} ${ARG_GTAPCC_OPTIONS}
              "$<$<BOOL:${defs}>:-D$<JOIN:${defs},;-D>>" "$<$<BOOL:${incs}>:-I$<JOIN:${incs},;-I>>"
              -I${srcdir} ${abs} -o ${out}
      DEPENDS ${abs} $<$<TARGET_EXISTS:gtapcc>:gtapcc>
      IMPLICIT_DEPENDS CXX ${abs}
      COMMAND_EXPAND_LISTS VERBATIM
      COMMENT "gtapcc: translating ${src}")
    list(APPEND translated ${out})
    list(APPEND srcdirs ${srcdir})
  endforeach()
  add_executable(${name} ${translated} ${plain})
  target_include_directories(${name} PRIVATE ${srcdirs} ${ARG_INCLUDE_DIRECTORIES})
  if(ARG_DEFINITIONS)
    target_compile_definitions(${name} PRIVATE ${ARG_DEFINITIONS})
  endif()
  if("-fgtap-no-taskwait" IN_LIST ARG_GTAPCC_OPTIONS)
    target_compile_definitions(${name} PRIVATE GTAP_ASSUME_NO_TASKWAIT=1)
  endif()
  if(ARG_TARGET STREQUAL "host")
    set_source_files_properties(${translated} PROPERTIES LANGUAGE CXX)
    target_include_directories(${name} BEFORE PRIVATE ${hostinc})
    target_include_directories(${name} PRIVATE ${rtinc})
    target_compile_definitions(${name} PRIVATE GTAP_TARGET_HOST=1)
    set_target_properties(${name} PROPERTIES CXX_STANDARD 20 CXX_STANDARD_REQUIRED ON)
  else()
    set_source_files_properties(${translated} PROPERTIES LANGUAGE CUDA)
    target_include_directories(${name} PRIVATE ${rtinc})
    # CMake 3.25 does not know nvcc 13's C++20 flag, so pass it directly.
    target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-std=c++20>)
    if(rtlib)
      target_link_libraries(${name} PRIVATE ${rtlib})
    endif()
  endif()
endfunction()
