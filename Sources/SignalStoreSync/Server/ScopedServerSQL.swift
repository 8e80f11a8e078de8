#if SIGNALSTORE_SYNC
/// The SQL that ``ScopedServer`` installs: tables, functions, the log's trigger and the
/// row-level security policies, each statement idempotent. `schema` is a plain lowercase name
/// (``PostgresURL/schema`` checks it), so it is spliced in as is.
enum ScopedServerSQL {
    static func statements(schema s: String) -> [String] {
        tables(s) + functions(s) + policies(s)
    }

    /// The privileges a replica's role needs, as `format` templates whose `%I` is the role.
    static func replicaPrivileges(schema s: String) -> [String] {
        [
            "GRANT USAGE ON SCHEMA \(s) TO %I",
            "GRANT SELECT, INSERT ON \(s).log TO %I",
            "GRANT SELECT, UPDATE ON \(s).counter TO %I",
            "GRANT SELECT, INSERT, UPDATE ON \(s).origins, \(s).refusals TO %I",
            "GRANT SELECT ON \(s).grants, \(s).scoped_tables TO %I",
        ]
    }

    private static func tables(_ s: String) -> [String] {
        [
            "CREATE TABLE IF NOT EXISTS \(s).scoped_tables (tbl text PRIMARY KEY, col text NOT NULL)",
            "CREATE TABLE IF NOT EXISTS \(s).grants (role name NOT NULL, scope text NOT NULL CHECK (scope <> ''), PRIMARY KEY (role, scope))",
            "CREATE INDEX IF NOT EXISTS grants_scope ON \(s).grants (scope)",
            """
            CREATE TABLE IF NOT EXISTS \(s).row_scopes (
                tbl text NOT NULL, row_key text NOT NULL, scope text NOT NULL, deleted boolean NOT NULL, PRIMARY KEY (tbl, row_key))
            """,
            // The stamp of the row's last entry: a delete in one scope that an older insert in
            // another must not undo.
            "ALTER TABLE \(s).row_scopes ADD COLUMN IF NOT EXISTS hlc bigint",
            """
            CREATE TABLE IF NOT EXISTS \(s).refusals (
                origin text NOT NULL, origin_seq bigint NOT NULL, uploaded_by name NOT NULL DEFAULT current_user,
                reason text NOT NULL, refused_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (origin, origin_seq))
            """,
            "ALTER TABLE \(s).log ADD COLUMN IF NOT EXISTS carried text",
            "CREATE INDEX IF NOT EXISTS log_row ON \(s).log (tbl, row_key)",
            "CREATE INDEX IF NOT EXISTS log_scope ON \(s).log (scope, position)",
            "CREATE INDEX IF NOT EXISTS log_previous_scope ON \(s).log (previous_scope, position) WHERE previous_scope IS NOT NULL",
            "REVOKE ALL ON ALL TABLES IN SCHEMA \(s) FROM PUBLIC",
        ]
    }

    private static func functions(_ s: String) -> [String] {
        [
            // The text of a scope column's value as the log encodes it ({"i":7} → 7).
            """
            CREATE OR REPLACE FUNCTION \(s).scope_text(value jsonb) RETURNS text LANGUAGE sql IMMUTABLE AS $f$
                SELECT coalesce(value->>'i', value->>'t', value->>'r', value->>'b')
            $f$
            """,
            // Whether `who` may write `wanted`: a grant to it or a role it inherits from, or it
            // owns the log. Runs as the trigger's owner, so every grant is visible to it.
            // (`to_regrole` rather than a join with the `pg_roles` view: a third of the cost.)
            """
            CREATE OR REPLACE FUNCTION \(s).holds(who name, wanted text) RETURNS boolean LANGUAGE sql STABLE AS $f$
                SELECT pg_catalog.pg_has_role(who, (SELECT relowner FROM pg_catalog.pg_class WHERE oid = '\(s).log'::regclass), 'USAGE')
                    OR EXISTS (SELECT 1 FROM \(s).grants g
                               WHERE g.scope = wanted AND pg_catalog.pg_has_role(who, pg_catalog.to_regrole(pg_catalog.quote_ident(g.role)), 'USAGE'))
            $f$
            """,
            // The entries of a row before `before` that its registers keep (its latest insert,
            // latest delete, and latest update of each column, by stamp): what a replica that
            // gains the row by a move applies first, as JSON.
            """
            CREATE OR REPLACE FUNCTION \(s).row_history(moved_table text, moved_key text, before bigint) RETURNS text
            LANGUAGE sql STABLE AS $f$
                SELECT json_agg(json_build_object('position', position, 'origin', origin, 'origin_seq', origin_seq, 'hlc', hlc,
                                                  'op', op, 'col', col, 'payload', payload) ORDER BY position)::text
                FROM (SELECT DISTINCT ON (CASE op WHEN 'update' THEN 'column ' || col ELSE op END) *
                      FROM \(s).log WHERE tbl = moved_table AND row_key = moved_key AND position < before
                      ORDER BY CASE op WHEN 'update' THEN 'column ' || col ELSE op END, hlc DESC, origin COLLATE "C" DESC) AS registers
            $f$
            """,
            // The scope an entry gets, from the entry and the row's recorded scope.
            """
            CREATE OR REPLACE FUNCTION \(s).entry_scope(entry \(s).log, scope_column text, known_scope text) RETURNS text
            LANGUAGE sql IMMUTABLE AS $f$
                SELECT CASE
                    WHEN entry.op = 'insert' THEN \(s).scope_text(entry.payload::jsonb -> scope_column)
                    WHEN entry.op = 'update' AND entry.col = scope_column THEN \(s).scope_text(entry.payload::jsonb)
                    ELSE known_scope END
            $f$
            """,
            """
            CREATE OR REPLACE FUNCTION \(s).scope_entry() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
            SET search_path = pg_catalog, pg_temp AS $f$
            DECLARE
                scope_column text;
                known record;
                wanted text;
            BEGIN
                SELECT col INTO scope_column FROM \(s).scoped_tables WHERE tbl = NEW.tbl;
                IF scope_column IS NULL THEN
                    NEW.scope := NULL;
                    NEW.previous_scope := NULL;
                    RETURN NEW;
                END IF;
                SELECT scope, deleted, hlc INTO known FROM \(s).row_scopes WHERE tbl = NEW.tbl AND row_key = NEW.row_key;
                wanted := \(s).entry_scope(NEW, scope_column, known.scope);
                IF wanted IS NULL OR wanted = '' THEN
                    RAISE EXCEPTION USING ERRCODE = 'SS001',
                        MESSAGE = format('%s %s has no %s, and a row of a scoped table needs one', NEW.tbl, NEW.row_key, scope_column);
                END IF;
                NEW.scope := wanted;
                NEW.previous_scope := CASE WHEN known.scope IS DISTINCT FROM wanted AND NOT known.deleted THEN known.scope END;
                IF NOT \(s).holds(NEW.uploaded_by, wanted) THEN
                    RAISE EXCEPTION USING ERRCODE = 'SS001',
                        MESSAGE = format('role %s has no grant for scope %s (%s.%s)', NEW.uploaded_by, wanted, NEW.tbl, scope_column);
                END IF;
                -- An insert older than the row's delete in another scope loses to it by the
                -- stamps, and the replicas of its scope never see that delete.
                IF NEW.op = 'insert' AND known.deleted AND known.scope IS DISTINCT FROM wanted AND NEW.hlc < known.hlc THEN
                    RAISE EXCEPTION USING ERRCODE = 'SS001',
                        MESSAGE = format('%s %s was deleted in scope %s by a later change', NEW.tbl, NEW.row_key, known.scope);
                END IF;
                IF NEW.previous_scope IS NOT NULL AND NOT \(s).holds(NEW.uploaded_by, NEW.previous_scope) THEN
                    RAISE EXCEPTION USING ERRCODE = 'SS001',
                        MESSAGE = format('role %s has no grant for scope %s, which %s %s is in', NEW.uploaded_by, NEW.previous_scope, NEW.tbl, NEW.row_key);
                END IF;
                IF NEW.previous_scope IS NOT NULL THEN
                    NEW.carried := \(s).row_history(NEW.tbl, NEW.row_key, NEW.position);
                END IF;
                INSERT INTO \(s).row_scopes (tbl, row_key, scope, deleted, hlc) VALUES (NEW.tbl, NEW.row_key, wanted, NEW.op = 'delete', NEW.hlc)
                    ON CONFLICT (tbl, row_key) DO UPDATE SET scope = excluded.scope, deleted = excluded.deleted, hlc = excluded.hlc;
                RETURN NEW;
            END
            $f$
            """,
            // Rings the doorbells of what an upload added, once per statement: every entry's
            // (the owner listens there), the shared tables', and each scope's it touched.
            """
            CREATE OR REPLACE FUNCTION \(s).ring() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
            SET search_path = pg_catalog, pg_temp AS $f$
            BEGIN
                PERFORM pg_notify('\(s)_log_all', '');
                PERFORM pg_notify('\(s)_log', '') WHERE EXISTS (SELECT 1 FROM added WHERE scope IS NULL);
                PERFORM pg_notify('\(s)_log_' || left(md5(touched), 16), '')
                    FROM (SELECT scope FROM added WHERE scope IS NOT NULL
                          UNION SELECT previous_scope FROM added WHERE previous_scope IS NOT NULL) AS t(touched);
                RETURN NULL;
            END
            $f$
            """,
            // Gives the entries already in the log (a deployment that had no scopes, a table
            // scoped later) their scopes, in log order, as the trigger would have; an entry
            // whose row has no scope gets '' (no role's), so it is nobody's to read; a move
            // carries its row's history, as the trigger gives it.
            """
            CREATE OR REPLACE FUNCTION \(s).assign_scopes() RETURNS void LANGUAGE plpgsql
            SET search_path = pg_catalog, pg_temp AS $f$
            DECLARE
                entry \(s).log;
                scope_column text;
                known record;
                wanted text;
            BEGIN
                FOR entry IN SELECT l.* FROM \(s).log l JOIN \(s).scoped_tables t ON t.tbl = l.tbl WHERE l.scope IS NULL ORDER BY l.position LOOP
                    SELECT col INTO scope_column FROM \(s).scoped_tables WHERE tbl = entry.tbl;
                    SELECT scope, deleted INTO known FROM \(s).row_scopes WHERE tbl = entry.tbl AND row_key = entry.row_key;
                    wanted := coalesce(\(s).entry_scope(entry, scope_column, known.scope), '');
                    UPDATE \(s).log SET scope = wanted,
                        previous_scope = CASE WHEN known.scope IS DISTINCT FROM wanted AND NOT known.deleted THEN known.scope END,
                        carried = CASE WHEN known.scope IS DISTINCT FROM wanted AND NOT known.deleted
                                       THEN \(s).row_history(entry.tbl, entry.row_key, entry.position) END
                        WHERE position = entry.position;
                    INSERT INTO \(s).row_scopes (tbl, row_key, scope, deleted, hlc) VALUES (entry.tbl, entry.row_key, wanted, entry.op = 'delete', entry.hlc)
                        ON CONFLICT (tbl, row_key) DO UPDATE SET scope = excluded.scope, deleted = excluded.deleted, hlc = excluded.hlc;
                END LOOP;
            END
            $f$
            """,
            "REVOKE ALL ON FUNCTION \(s).holds(name, text), \(s).row_history(text, text, bigint), \(s).scope_entry(), \(s).ring(), \(s).assign_scopes() FROM PUBLIC",
            "DROP TRIGGER IF EXISTS scope_entry ON \(s).log",
            "CREATE TRIGGER scope_entry BEFORE INSERT ON \(s).log FOR EACH ROW EXECUTE FUNCTION \(s).scope_entry()",
            "DROP TRIGGER IF EXISTS ring ON \(s).log",
            "CREATE TRIGGER ring AFTER INSERT ON \(s).log REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION \(s).ring()",
        ]
    }

    private static func policies(_ s: String) -> [String] {
        let tables = ["log", "counter", "origins", "grants", "scoped_tables", "row_scopes", "refusals"]
        let mine = "SELECT g.scope FROM \(s).grants g"
        return tables.map { "ALTER TABLE \(s).\($0) ENABLE ROW LEVEL SECURITY" } + policy(s, "log", "reads", "FOR SELECT USING (scope IS NULL OR uploaded_by = current_user OR scope IN (\(mine)) OR previous_scope IN (\(mine)))")
            + policy(s, "log", "appends", "FOR INSERT WITH CHECK (uploaded_by = current_user)")
            + policy(s, "counter", "everyone", "USING (true) WITH CHECK (true)")
            + policy(s, "origins", "own", "USING (uploaded_by = current_user) WITH CHECK (uploaded_by = current_user)")
            + policy(s, "refusals", "own", "USING (uploaded_by = current_user) WITH CHECK (uploaded_by = current_user)")
            + policy(s, "grants", "own", "FOR SELECT USING (role IN (SELECT rolname FROM pg_catalog.pg_roles WHERE pg_catalog.pg_has_role(current_user, oid, 'USAGE')))")
            + policy(s, "scoped_tables", "everyone", "FOR SELECT USING (true)")
    }

    private static func policy(_ s: String, _ table: String, _ name: String, _ body: String) -> [String] {
        ["DROP POLICY IF EXISTS \(name) ON \(s).\(table)", "CREATE POLICY \(name) ON \(s).\(table) \(body)"]
    }
}
#endif
