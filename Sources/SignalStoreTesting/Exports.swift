@_exported import SignalStore
@_exported import SignalsTesting
@_exported import Testing
