#if SIGNALSTORE_SYNC
@_exported import SignalStore
#endif
