#if !SIGNALSTORE_SYNC
/// What `SignalStoreSync` holds when the package's `Sync` trait is off: sync's packages
/// (postgres-nio, SwiftNIO, BoringSSL) are then neither resolved nor built, and using sync is
/// an error that says how to turn it on.
@available(*, unavailable, message: "SignalStoreSync needs the SignalStore package's Sync trait: depend on it with .package(url: …, traits: [\"Sync\"])")
public final class SyncClient {}
#endif
