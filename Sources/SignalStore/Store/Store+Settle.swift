extension Store {
    /// Returns once every commit made so far, by any connection or process, has been read from
    /// the journal and delivered: to change-feed subscribers, live objects and query signals.
    ///
    /// Other connections' commits are looked for now (`PRAGMA data_version`), not at the next
    /// poll; then a marker is queued behind everything already queued, and this returns when it
    /// is delivered, whichever thread delivers. Observation's notifications of main-actor models
    /// still hop to the main queue.
    package func settle() async {
        pollForExternalCommits()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            publisher.enqueue([.notification { continuation.resume() }])
            publisher.drain()
        }
    }
}
