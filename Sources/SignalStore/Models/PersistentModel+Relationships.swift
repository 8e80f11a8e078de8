extension PersistentModel {
    /// The signal of a `@Parent` relationship: replays the parent now (or nil), then emits when
    /// the link changes: the key column is set, by this store or any other writer, the parent's
    /// row goes away (deleted, or evicted by a `REPLACE`), or a key that named no row finds one
    /// (a writer with foreign keys off inserted the child first). Emits nil while there is no
    /// parent. Completes when this object's row is deleted or the store closes.
    ///
    /// ```swift
    /// order.signal(for: \.customer).subscribe(onValue: { customer in label.text = customer?.name ?? "–" })
    /// ```
    public func signal<Parent: PersistentModel>(for keyPath: KeyPath<Self, Parent?>) -> Signal<Parent?, Never> {
        guard let relationship = Self._$isolation.relationship(of: keyPath), relationship.kind == .parent,
              let keyIndex = Self._$columnProperties.firstIndex(of: relationship.keyProperty)
        else { preconditionFailure("\(keyPath) is not a @Parent relationship of \(Self.self)") }
        let property = relationship.property
        return _valueSignal(column: keyIndex)
            .flatMapLatest { [weak self] key -> Signal<Parent?, Never> in
                guard let self, key != .null else { return .just(nil) }
                if let (parent, column) = ModelRelationships.parent(of: self, key: key, property: property) as (object: Parent, column: Int)? {
                    return Self.presence(of: parent, keyColumn: column, key: key)
                }
                return self.arrival(of: Parent.self, key: key, property: property)
            }
            .removeDuplicates { $0 === $1 }
    }

    /// A property of the parent, followed along the link: the parent's value now, then each
    /// change of it, switching to the new parent's when the link changes, and nil while there is
    /// no parent.
    ///
    /// ```swift
    /// order.signal(for: \.customer, \.name).subscribe(onValue: { label.text = $0 ?? "no customer" })
    /// ```
    public func signal<Parent: PersistentModel, Value: Sendable>(for link: KeyPath<Self, Parent?>, _ property: KeyPath<Parent, Value>) -> Signal<Value?, Never> {
        guard let index = Parent._$isolation.index(of: property) else {
            preconditionFailure("\(property) is not a stored property of \(Parent.self)")
        }
        return signal(for: link).flatMapLatest { parent -> Signal<Value?, Never> in
            guard let parent else { return .just(nil) }
            return parent._signal(at: index, as: Value.self).map { Optional($0) }
        }
    }

    /// `parent` while its key column holds `key`, nil once it does not or its row is gone.
    private static func presence<Parent: PersistentModel>(of parent: Parent, keyColumn: Int, key: SQLiteValue) -> Signal<Parent?, Never> {
        let values = parent._valueSignal(column: keyColumn)
        return Signal { downstream in
            values.subscribe(
                onValue: { value in downstream.send(value == key ? parent : nil) },
                onCompleted: {
                    downstream.send(nil)
                    downstream.complete()
                }
            )
        }
    }

    /// For a key that names no row yet (written by a writer with foreign keys off, or before
    /// its parent): nil, then the parent once a row with that key arrives, from any writer.
    /// Follows a live result of the parent rows with that key, which has one row or none.
    private func arrival<Parent: PersistentModel>(of type: Parent.Type, key: SQLiteValue, property: String) -> Signal<Parent?, Never> {
        guard let host = _$model.host, let resolved = host.relationship(property, of: Self.self) else { return .just(nil) }
        let candidates = host.results(Parent.self, column: resolved.parentColumn, value: key, orderBy: [], deferred: false)
        return candidates.changes.map { change in change.objects.first }
    }

    /// The committed values of column `index`, untyped: replays the current one.
    func _valueSignal(column index: Int) -> Signal<SQLiteValue, Never> {
        _$model.valueSubject(index) { () -> (subject: ReplaySubject<SQLiteValue, Never>, send: (SQLiteValue) -> Void, complete: () -> Void) in
            let subject = ReplaySubject<SQLiteValue, Never>(bufferSize: 1)
            subject.send(self._$value(column: index))
            return (subject, { subject.send($0) }, { subject.complete() })
        }.signal
    }
}
