/* experimental/gtap_thread_chaselev.cuh - the path under which the paper's newer programs include
 * gtap_thread_chaselev.cuh (the ablation's header): the same header. Through the include path
 * (<>), so that a host-target build finds the host target's headers first. */
#include <gtap_thread_chaselev.cuh>
