extension LiveResults {
    // The objects of a result: read when first needed, identity kept, and an image from the
    // journal for a row that left before it could be read.

    /// Every object in order, loading the missing ones in one query.
    func materialize() -> [Model] {
        let missing = state.withLock { state in state.allObjects == nil ? state.missingRowIDs : [] }
        let loaded = missing.isEmpty ? [:] : load(missing)
        return state.withLock { state in
            for (rowID, object) in loaded { state.keep(object, rowID: rowID, near: nil) }
            if let all = state.allObjects { return all }
            // Rows that joined while these were loading: read them at the next step.
            let rowIDs = state.rowIDs
            return rowIDs.indices.map { index in state.objects[index] ?? loaded[rowIDs[index]] ?? detachedImage(of: rowIDs[index]) }
        }
    }

    /// The live instances of `rowIDs`: one query, identity kept. A row deleted by a commit not
    /// applied to this result yet is shown as its last journaled image until that commit
    /// arrives.
    func load(_ rowIDs: [Int64]) -> [Int64: Model] {
        guard let store else { return [:] }
        var objects: [Int64: Model] = [:]
        do {
            for object in try query.objects(rowIDs: rowIDs, store) {
                if let rowID = object._$model.rowID { objects[rowID] = object }
            }
        } catch {
            store.report(StoreError(error))
        }
        for rowID in rowIDs where objects[rowID] == nil { objects[rowID] = detachedImage(of: rowID) }
        return objects
    }

    /// An object of a row that is gone, made from its last journaled image.
    private func detachedImage(of rowID: Int64) -> Model {
        let image = (try? store?.history(table: Model._$table, rowID: rowID))?.last { $0.row != nil }?.row ?? [:]
        let values = ModelSQL.of(Model.self).columnNames.map { image[$0] ?? .null }
        guard let object = try? Model(_$row: ModelRow(values: values)) else {
            preconditionFailure("row \(rowID) of '\(Model._$table)' left the database before its \(Model.self) could be read, and no image of it is journaled")
        }
        return object
    }
}
