extension LiveResults {
    // The objects of a result: read when first needed, identity kept, and an image from the
    // journal for a row that left before it could be read.

    /// Every object in order, loading the missing ones at once (``load(_:byFilter:)``): by the
    /// filter when they are most of a result without a window, otherwise by rowid.
    func materialize() -> [Model] {
        let (missing, mostOfTheResult) = state.withLock { state -> ([Int64], Bool) in
            guard state.allObjects == nil else { return ([], false) }
            let missing = state.missingRowIDs
            return (missing, query.limit == nil && missing.count >= 1_000 && missing.count * 2 >= state.rowIDs.count)
        }
        let loaded = missing.isEmpty ? [:] : load(missing, byFilter: mostOfTheResult)
        return state.withLock { state in
            state.keep(loaded)
            if let all = state.allObjects { return all }
            // Rows that joined while these were loading: read them at the next step.
            let rowIDs = state.rowIDs
            return rowIDs.indices.map { index in state.objects[index] ?? loaded[rowIDs[index]] ?? detachedImage(of: rowIDs[index]) }
        }
    }

    /// The live instances of `rowIDs`: one query, identity kept; `byFilter`, when they are most
    /// of a result without a window, one scan of the rows the filter matches, then a query for
    /// those it did not return (changed by a commit not applied to this result yet). A row
    /// deleted by such a commit is shown as its last journaled image until that commit arrives.
    func load(_ rowIDs: [Int64], byFilter: Bool = false) -> [Int64: Model] {
        guard let store else { return [:] }
        var objects: [Int64: Model] = [:]
        do {
            if byFilter {
                let wanted = Set(rowIDs)
                for object in try query.matchingObjects(store) {
                    if let rowID = object._$model.rowID, wanted.contains(rowID) { objects[rowID] = object }
                }
            }
            let rest = objects.count == rowIDs.count ? [] : rowIDs.filter { objects[$0] == nil }
            for object in rest.isEmpty ? [] : try query.objects(rowIDs: rest, store) {
                if let rowID = object._$model.rowID { objects[rowID] = object }
            }
        } catch {
            store.report(StoreError(error))
        }
        for rowID in rowIDs where objects[rowID] == nil { objects[rowID] = detachedImage(of: rowID) }
        return objects
    }

    /// An object of a row that is gone, made from its last journaled image. When the journal
    /// no longer holds one (another process pruned it), a stand-in with zero values, reported
    /// on `store.errors`, until the commit that deleted the row reaches this result.
    private func detachedImage(of rowID: Int64) -> Model {
        let image = (try? store?.history(table: Model._$table, rowID: rowID))?.last { $0.row != nil }?.row
        let values = ModelSQL.of(Model.self).columnNames.map { image?[$0] ?? .null }
        if let object = try? Model(_$row: ModelRow(values: values)) { return object }
        var standInValues = values
        let key = ModelSQL.of(Model.self).primaryKeyIndex
        if standInValues[key] == .null { standInValues[key] = .integer(rowID) }   // the rowid, for an INTEGER PRIMARY KEY
        store?.report(.invalidArgument(
            "row \(rowID) of '\(Model._$table)' left the database before its \(Model.self) could be read, and the journal no longer holds it (pruned); the result shows a stand-in with zero values until it applies the delete"))
        // Numbers, text, data, dates and optionals read one of the zeros; only a type of the
        // app's own that reads none of them (an enum without a 0 or "" case) has no stand-in.
        guard let standIn = try? Model(_$row: ModelRow(values: standInValues, zeroesWhatIsMissing: true)) else {
            preconditionFailure("row \(rowID) of '\(Model._$table)' is gone, the journal no longer holds it, and \(Model.self) cannot be made of zero values")
        }
        return standIn
    }
}
