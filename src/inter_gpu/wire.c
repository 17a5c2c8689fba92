/* wire.c - names of the wire-format status codes (the format itself is gtap/wire.h). */
#include "gtap/wire.h"

const char *gtap_wire_status_str(int status)
{
    switch (status) {
    case GTAP_WIRE_OK: return "ok";
    case GTAP_WIRE_ERR_MAGIC: return "not a GTaP wire batch (bad magic)";
    case GTAP_WIRE_ERR_VERSION: return "wire format version mismatch";
    case GTAP_WIRE_ERR_KIND: return "unexpected batch kind";
    case GTAP_WIRE_ERR_TRUNCATED: return "truncated batch";
    case GTAP_WIRE_ERR_HASH: return "batch encoded by a different program (program hash)";
    case GTAP_WIRE_ERR_ENTRY: return "malformed entry";
    case GTAP_WIRE_ERR_SPACE: return "buffer too small";
    case GTAP_WIRE_ERR_GRANULARITY: return "task of another granularity (thread-level vs block-level, or another block size)";
    default: return "unknown wire status";
    }
}
