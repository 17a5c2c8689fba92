/* gtap_block.cuh (host target) - block-level programs cannot run on the CPU reference
 * executor: a block-level task is executed by a whole thread block, which the host target
 * (one thread) does not have. */
#error "block-level programs (gtap_block.cuh) need a GPU; gtapcc --target=host runs thread-level programs only"
