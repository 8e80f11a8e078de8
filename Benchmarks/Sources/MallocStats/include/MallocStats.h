#ifndef MALLOC_STATS_H
#define MALLOC_STATS_H
#include <stddef.h>

/// Bytes currently allocated on the heap and not yet freed (glibc's mallinfo2 on Linux;
/// malloc_zone_statistics on Apple platforms).
size_t malloc_stats_bytes_in_use(void);

#endif
