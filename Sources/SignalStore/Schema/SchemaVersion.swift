extension Connection {
    /// `PRAGMA schema_version`: it changes with every change of the schema, by any connection
    /// or process, so what was read of the schema can be kept until it does.
    package func schemaVersion() throws -> Int64 {
        try scalar("PRAGMA schema_version")?.integerValue ?? 0
    }
}
