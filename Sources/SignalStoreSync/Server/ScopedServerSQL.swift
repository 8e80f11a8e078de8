#if SIGNALSTORE_SYNC
/// The SQL that ``ScopedServer`` installs: tables, functions, the log's trigger and the
/// row-level security policies, each statement idempotent. `schema` is a plain lowercase name
/// (``PostgresURL/schema`` checks it), so it is spliced in as is.
enum ScopedServerSQL {
    static func statements(schema s: String) -> [String] {
        ServerLogSQL.statements(schema: s) + tables(s) + functions(s) + policies(s) + [upgradedPrivileges(schema: s)]
    }

    /// The privileges a replica's role needs, as `format` templates whose `%I` is the role:
    /// reading, and the server's upload functions (``ServerLogSQL``). No role writes a sync
    /// table itself.
    static func replicaPrivileges(schema s: String) -> [String] {
        [
            "GRANT USAGE ON SCHEMA \(s) TO %I",
            "GRANT SELECT ON \(s).log, \(s).counter, \(s).origins, \(s).refusals, \(s).grants, \(s).scoped_tables TO %I",
        ] + ServerLogSQL.replicaPrivileges(schema: s)
    }

    /// Takes from every role with grants the write privileges that earlier versions gave
    /// (`INSERT` on the log, `UPDATE` on the counter, writes to origins and refusals), and
    /// gives it the upload functions instead: a deployment upgrades in place.
    static func upgradedPrivileges(schema s: String) -> String {
        let grants = replicaPrivileges(schema: s).map { "EXECUTE format('\($0.replacingOccurrences(of: "'", with: "''"))', r);" }
        return """
            DO $d$ DECLARE r name; BEGIN
                FOR r IN SELECT DISTINCT g.role FROM \(s).grants g WHERE to_regrole(quote_ident(g.role)) IS NOT NULL LOOP
                    EXECUTE format('REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON \(s).log, \(s).counter, \(s).origins, \(s).refusals FROM %I', r);
                    \(grants.joined(separator: "\n            "))
                END LOOP;
            END $d$
            """
    }

    private static func tables(_ s: String) -> [String] {
        [
            "CREATE TABLE IF NOT EXISTS \(s).scoped_tables (tbl text PRIMARY KEY, col text NOT NULL)",
            "CREATE TABLE IF NOT EXISTS \(s).grants (role name NOT NULL, scope text NOT NULL CHECK (scope <> ''), PRIMARY KEY (role, scope))",
            "CREATE INDEX IF NOT EXISTS grants_scope ON \(s).grants (scope)",
            """
            CREATE TABLE IF NOT EXISTS \(s).row_scopes (
                tbl text NOT NULL, row_key text NOT NULL, scope text NOT NULL, PRIMARY KEY (tbl, row_key))
            """,
            // The stamps that decide a row's scope and existence (see `place`).
            "ALTER TABLE \(s).row_scopes ADD COLUMN IF NOT EXISTS scope_hlc bigint, ADD COLUMN IF NOT EXISTS insert_hlc bigint, ADD COLUMN IF NOT EXISTS delete_hlc bigint",
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
            // Where an entry goes, by the stamps as every replica's registers decide them: an
            // insert or an update of the scope column moves the row only if its stamp is the
            // latest of the scope column's (an older one loses everywhere, and stays where the
            // row is); an insert into another scope that an existing later insert or delete
            // would beat is refused (`strict`) or kept where the row is (the backfill). Records
            // the row's scope and stamps, and returns the entry's scope, the scope its row left
            // (a move of an existing row), or why it is refused.
            """
            CREATE OR REPLACE FUNCTION \(s).place(entry \(s).log, scope_column text, strict boolean,
                OUT scope text, OUT previous_scope text, OUT refusal text)
            LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $f$
            DECLARE
                known record;
                offered text;
                existed boolean;
                sets_scope boolean := entry.op = 'insert' OR (entry.op = 'update' AND entry.col = scope_column);
            BEGIN
                SELECT r.scope, r.scope_hlc, r.insert_hlc, r.delete_hlc INTO known
                    FROM \(s).row_scopes r WHERE r.tbl = entry.tbl AND r.row_key = entry.row_key;
                existed := known.scope IS NOT NULL AND coalesce(known.insert_hlc, 0) > coalesce(known.delete_hlc, -1);
                scope := known.scope;
                IF sets_scope THEN
                    offered := \(s).scope_text(CASE WHEN entry.op = 'insert' THEN entry.payload::jsonb -> scope_column ELSE entry.payload::jsonb END);
                    IF known.scope IS NULL OR offered IS NOT DISTINCT FROM known.scope THEN
                        scope := offered;
                    ELSIF entry.hlc > coalesce(known.scope_hlc, 0) AND (entry.op = 'update' OR entry.hlc > coalesce(known.delete_hlc, 0)) THEN
                        scope := offered;
                    ELSIF entry.op = 'insert' THEN
                        refusal := format('%s %s is in scope %s by a later change', entry.tbl, entry.row_key, known.scope);
                    END IF;
                END IF;
                IF refusal IS NOT NULL AND strict THEN
                    RETURN;
                END IF;
                refusal := NULL;
                previous_scope := CASE WHEN existed AND known.scope IS DISTINCT FROM scope THEN known.scope END;
                INSERT INTO \(s).row_scopes AS r (tbl, row_key, scope, scope_hlc, insert_hlc, delete_hlc)
                    VALUES (entry.tbl, entry.row_key, coalesce(scope, ''),
                            CASE WHEN sets_scope THEN entry.hlc END, CASE WHEN entry.op = 'insert' THEN entry.hlc END,
                            CASE WHEN entry.op = 'delete' THEN entry.hlc END)
                    ON CONFLICT (tbl, row_key) DO UPDATE SET scope = excluded.scope,
                        scope_hlc = greatest(r.scope_hlc, excluded.scope_hlc), insert_hlc = greatest(r.insert_hlc, excluded.insert_hlc),
                        delete_hlc = greatest(r.delete_hlc, excluded.delete_hlc);
            END
            $f$
            """,
            """
            CREATE OR REPLACE FUNCTION \(s).scope_entry() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
            SET search_path = pg_catalog, pg_temp AS $f$
            DECLARE
                scope_column text;
                placed record;
            BEGIN
                SELECT col INTO scope_column FROM \(s).scoped_tables WHERE tbl = NEW.tbl;
                IF scope_column IS NULL THEN
                    NEW.scope := NULL;
                    NEW.previous_scope := NULL;
                    RETURN NEW;
                END IF;
                SELECT * INTO placed FROM \(s).place(NEW, scope_column, true);
                IF placed.refusal IS NOT NULL THEN
                    RAISE EXCEPTION USING ERRCODE = 'SS001', MESSAGE = placed.refusal;
                END IF;
                IF placed.scope IS NULL OR placed.scope = '' THEN
                    RAISE EXCEPTION USING ERRCODE = 'SS001',
                        MESSAGE = format('%s %s has no %s, and a row of a scoped table needs one', NEW.tbl, NEW.row_key, scope_column);
                END IF;
                NEW.scope := placed.scope;
                NEW.previous_scope := placed.previous_scope;
                IF NOT \(s).holds(NEW.uploaded_by, NEW.scope) THEN
                    RAISE EXCEPTION USING ERRCODE = 'SS001',
                        MESSAGE = format('role %s has no grant for scope %s (%s.%s)', NEW.uploaded_by, NEW.scope, NEW.tbl, scope_column);
                END IF;
                IF NEW.previous_scope IS NOT NULL AND NOT \(s).holds(NEW.uploaded_by, NEW.previous_scope) THEN
                    RAISE EXCEPTION USING ERRCODE = 'SS001',
                        MESSAGE = format('role %s has no grant for scope %s, which %s %s is in', NEW.uploaded_by, NEW.previous_scope, NEW.tbl, NEW.row_key);
                END IF;
                IF NEW.previous_scope IS NOT NULL THEN
                    NEW.carried := \(s).row_history(NEW.tbl, NEW.row_key, NEW.position);
                END IF;
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
                placed record;
            BEGIN
                FOR entry IN SELECT l.* FROM \(s).log l JOIN \(s).scoped_tables t ON t.tbl = l.tbl WHERE l.scope IS NULL ORDER BY l.position LOOP
                    SELECT * INTO placed FROM \(s).place(entry, (SELECT col FROM \(s).scoped_tables WHERE tbl = entry.tbl), false);
                    UPDATE \(s).log SET scope = coalesce(placed.scope, ''), previous_scope = placed.previous_scope,
                        carried = CASE WHEN placed.previous_scope IS NOT NULL THEN \(s).row_history(entry.tbl, entry.row_key, entry.position) END
                        WHERE position = entry.position;
                END LOOP;
            END
            $f$
            """,
            "REVOKE ALL ON FUNCTION \(s).holds(name, text), \(s).row_history(text, text, bigint), \(s).place(\(s).log, text, boolean), \(s).scope_entry(), \(s).ring(), \(s).assign_scopes() FROM PUBLIC",
            "DROP TRIGGER IF EXISTS scope_entry ON \(s).log",
            "CREATE TRIGGER scope_entry BEFORE INSERT ON \(s).log FOR EACH ROW EXECUTE FUNCTION \(s).scope_entry()",
            "DROP TRIGGER IF EXISTS ring ON \(s).log",
            "CREATE TRIGGER ring AFTER INSERT ON \(s).log REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION \(s).ring()",
        ]
    }

    private static func policies(_ s: String) -> [String] {
        let tables = ["log", "counter", "origins", "grants", "scoped_tables", "row_scopes", "refusals"]
        let mine = "SELECT g.scope FROM \(s).grants g"
        // Roles only read: the server's upload functions write, as the tables' owner, whom
        // row-level security does not bind.
        return tables.map { "ALTER TABLE \(s).\($0) ENABLE ROW LEVEL SECURITY" } + policy(s, "log", "reads", "FOR SELECT USING (scope IS NULL OR uploaded_by = current_user OR scope IN (\(mine)) OR previous_scope IN (\(mine)))")
            + ["DROP POLICY IF EXISTS appends ON \(s).log"]
            + policy(s, "counter", "everyone", "FOR SELECT USING (true)")
            + policy(s, "origins", "own", "FOR SELECT USING (uploaded_by = current_user)")
            + policy(s, "refusals", "own", "FOR SELECT USING (uploaded_by = current_user)")
            + policy(s, "grants", "own", "FOR SELECT USING (role IN (SELECT rolname FROM pg_catalog.pg_roles WHERE pg_catalog.pg_has_role(current_user, oid, 'USAGE')))")
            + policy(s, "scoped_tables", "everyone", "FOR SELECT USING (true)")
    }

    private static func policy(_ s: String, _ table: String, _ name: String, _ body: String) -> [String] {
        ["DROP POLICY IF EXISTS \(name) ON \(s).\(table)", "CREATE POLICY \(name) ON \(s).\(table) \(body)"]
    }
}
#endif
