#include "MallocStats.h"

#if defined(__linux__)
#include <malloc.h>
size_t malloc_stats_bytes_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}
#elif defined(__APPLE__)
#include <malloc/malloc.h>
size_t malloc_stats_bytes_in_use(void) {
    malloc_statistics_t stats;
    malloc_zone_statistics(NULL, &stats);
    return stats.size_in_use;
}
#else
size_t malloc_stats_bytes_in_use(void) { return 0; }
#endif
