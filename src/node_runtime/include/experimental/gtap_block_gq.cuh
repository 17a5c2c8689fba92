/* experimental/gtap_block_gq.cuh - the path under which the paper's newer programs include
 * gtap_block_gq.cuh (the ablation's header): the same header. Through the include path
 * (<>), so that a host-target build finds the host target's headers first. */
#include <gtap_block_gq.cuh>
