#if SIGNALSTORE_SYNC
/// The SQL of the log's upload path, which every deployment installs: the server decides, the
/// client proposes.
///
/// A replica never writes the log, the counter or its origin's row itself. It calls two
/// `SECURITY DEFINER` functions, which run as the sync tables' owner:
/// - `lock_log(origin)` takes the log's lock (the counter's row, held to the commit) and
///   returns the next position and what the server holds from `origin`;
/// - `append(origin, entries)` checks each entry, stores the good ones at the positions that
///   follow, moves the counter, records the origin's progress and the refused entries, and
///   returns what it did.
///
/// Both check that `origin` belongs to the connection's login role (`session_user`, which
/// neither `SET ROLE` nor the client can change): the first upload of an origin registers it
/// to its role, and an entry under another role's origin is refused. `uploaded_by` is set by
/// the server, never taken from the client.
///
/// What `append` checks of an upload (on a server without scopes, not of the tables' owner's or
/// a superuser's, whom nothing binds: they can write the log directly), and what it does when
/// a check fails:
/// - The shape of the upload and of each entry (an array of `[seq, hlc, table, key,
///   operation, column, payload]`, a known operation, a column for an update and only for
///   one, a key and a payload in the log's value encoding): a malformed upload is no
///   client's of this library, and the whole call fails (SQLSTATE ``malformedState``), with
///   nothing stored.
/// - What a good client may still propose and a deployment not allow: a table or column the
///   server does not sync (`synced_tables`, which `signalstore sync setup` fills), a value
///   over the size limit (`limits`), a stamp more than a day ahead of the server's clock, a
///   scope the role holds no grant for (``ScopedServer``). Such an entry is refused alone: it
///   is recorded in `refusals` for its replica (which lists it as a conflict of its own) and
///   the others are stored.
///
/// `schema` is a plain lowercase name (``PostgresURL/schema`` checks it), spliced in as is.
enum ServerLogSQL {
    /// The SQLSTATE of an upload that is not well formed, or under another role's origin.
    static let malformedState = "SS003"
    static let foreignOriginState = "SS002"

    /// The size limit of one value that `signalstore sync setup` sets unless told: 1 MiB.
    static let defaultValueLimit: Int64 = 1 << 20

    /// The tables and functions, each statement idempotent.
    static func statements(schema s: String) -> [String] {
        tables(s) + ConcurrentEditsSQL.statements(schema: s) + checks(s) + upload(s) + [
            "REVOKE ALL ON FUNCTION \(s).claim_origin(text), \(s).lock_log(text), \(s).append(text, text) FROM PUBLIC",
        ]
    }

    /// The privileges on the upload path that a replica's role gets (`format` templates whose
    /// `%I` is the role).
    static func replicaPrivileges(schema s: String) -> [String] {
        ["GRANT EXECUTE ON FUNCTION \(s).lock_log(text), \(s).append(text, text) TO %I"]
    }

    /// The functions whose presence says the upload path is installed.
    static func installedCheck(schema s: String) -> String {
        "to_regprocedure('\(s).append(text, text)') IS NOT NULL AND to_regclass('\(s).limits') IS NOT NULL AND \(ConcurrentEditsSQL.installedCheck(schema: s))"
    }

    private static func tables(_ s: String) -> [String] {
        [
            // The tables and columns the server takes entries of; empty: every table.
            "CREATE TABLE IF NOT EXISTS \(s).synced_tables (tbl text PRIMARY KEY, columns text[] NOT NULL, key_length int NOT NULL CHECK (key_length > 0))",
            "CREATE TABLE IF NOT EXISTS \(s).limits (id int PRIMARY KEY CHECK (id = 1), max_value_bytes bigint CHECK (max_value_bytes > 0))",
            // No limit until `signalstore sync setup` sets one (1 MiB unless told).
            "INSERT INTO \(s).limits VALUES (1, NULL) ON CONFLICT DO NOTHING",
            """
            CREATE TABLE IF NOT EXISTS \(s).refusals (
                origin text NOT NULL, origin_seq bigint NOT NULL, uploaded_by name NOT NULL DEFAULT current_user,
                reason text NOT NULL, refused_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (origin, origin_seq))
            """,
        ]
    }

    /// The function that raises for a malformed upload.
    private static func checks(_ s: String) -> [String] {
        [
            // Raises the error of a malformed upload; typed as the caller needs. (Volatile: the
            // planner must never fold a call with a constant argument.)
            """
            CREATE OR REPLACE FUNCTION \(s).malformed(problem text) RETURNS text LANGUAGE plpgsql VOLATILE AS $f$
            BEGIN
                RAISE EXCEPTION USING ERRCODE = '\(malformedState)', MESSAGE = 'the upload is not well formed: ' || problem;
            END
            $f$
            """,
        ]
    }

    private static func upload(_ s: String) -> [String] {
        [
            // Registers `origin` to the login role on its first upload; refuses another role's.
            // Returns the highest origin seq the server holds from it.
            """
            CREATE OR REPLACE FUNCTION \(s).claim_origin(origin text) RETURNS bigint
            LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
            DECLARE
                holder name;
                through bigint;
            BEGIN
                IF origin IS NULL OR origin !~ '^[A-Za-z0-9._-]{1,64}$' THEN
                    RAISE EXCEPTION USING ERRCODE = '\(malformedState)', MESSAGE = 'the upload is not well formed: an origin is 1 to 64 letters, digits, dots, dashes and underscores';
                END IF;
                INSERT INTO \(s).origins AS o (origin, uploaded_through, uploaded_by) VALUES (claim_origin.origin, 0, session_user)
                    ON CONFLICT DO NOTHING;
                SELECT o.uploaded_by, o.uploaded_through INTO holder, through FROM \(s).origins o WHERE o.origin = claim_origin.origin;
                IF holder IS DISTINCT FROM session_user THEN
                    RAISE EXCEPTION USING ERRCODE = '\(foreignOriginState)',
                        MESSAGE = format('origin %s belongs to role %s, and role %s may not upload under it', origin, holder, session_user);
                END IF;
                RETURN through;
            END
            $f$
            """,
            """
            CREATE OR REPLACE FUNCTION \(s).lock_log(origin text, OUT next bigint, OUT stored bigint)
            LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
            BEGIN
                stored := \(s).claim_origin(origin);
                SELECT c.next INTO next FROM \(s).counter c WHERE c.id = 1 FOR UPDATE;
            END
            $f$
            """,
            // Stores the entries of `origin` after those the server holds, at the next
            // positions, and returns the highest origin seq it now holds (or refused), how many
            // it stored, and the refused ones as a JSON array of [seq, reason] (NULL: none).
            """
            CREATE OR REPLACE FUNCTION \(s).append(origin text, entries text, OUT stored bigint, OUT added integer, OUT refused text)
            LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
            DECLARE
                start bigint;
                offered jsonb;
                known boolean := EXISTS (SELECT 1 FROM \(s).synced_tables);
                -- Without scopes, the tables' owner and superusers are not checked: nothing
                -- binds them (they can write the log directly), and they make every upload of
                -- such a deployment. Replicas set aside what they cannot read, whoever wrote it.
                -- (With scopes, the log's trigger may refuse an entry of anyone's: the checked
                -- path below is the one that goes on without it.)
                unchecked boolean := to_regclass('\(s).scoped_tables') IS NULL
                    AND ((SELECT r.rolsuper FROM pg_roles r WHERE r.rolname = session_user)
                         OR pg_has_role(session_user, (SELECT c.relowner FROM pg_class c WHERE c.oid = '\(s).log'::regclass), 'USAGE'));
                max_bytes bigint := (SELECT l.max_value_bytes FROM \(s).limits l WHERE l.id = 1);
                latest numeric := ((extract(epoch FROM clock_timestamp()) * 1000)::bigint + 86400000)::numeric * 65536;
                top bigint;
                problems jsonb;
                one record;
            BEGIN
                stored := \(s).claim_origin(origin);
                SELECT c.next INTO start FROM \(s).counter c WHERE c.id = 1 FOR UPDATE;
                BEGIN
                    offered := entries::jsonb;
                EXCEPTION WHEN others THEN
                    PERFORM \(s).malformed('the entries are not JSON');
                END;
                IF jsonb_typeof(offered) IS DISTINCT FROM 'array' THEN
                    PERFORM \(s).malformed('the entries are not a JSON array');
                END IF;
                IF unchecked THEN
                    -- The entries as they come.
                    WITH kept AS (
                        INSERT INTO \(s).log (position, origin, origin_seq, hlc, tbl, row_key, op, col, payload, uploaded_by, seen, base, resolves)
                        SELECT start + row_number() OVER (ORDER BY a.n) - 1, append.origin, (a.e ->> 0)::bigint, (a.e ->> 1)::bigint,
                               a.e ->> 2, a.e ->> 3, a.e ->> 4, a.e ->> 5, a.e ->> 6, session_user,
                               (a.e ->> 7)::bigint, a.e ->> 8, (a.e ->> 9)::bigint
                        FROM jsonb_array_elements(offered) WITH ORDINALITY AS a(e, n) WHERE (a.e ->> 0)::bigint > stored ORDER BY a.n
                        RETURNING origin_seq)
                    SELECT max(origin_seq), count(*) INTO top, added FROM kept;
                ELSE
                    -- One pass: each entry's problem, then the good ones stored at the next
                    -- positions. (No temporary table: a role could make its own in its
                    -- session's pg_temp first.)
                    BEGIN
                        WITH c AS MATERIALIZED (\(checked(s))),
                        kept AS (
                            INSERT INTO \(s).log (position, origin, origin_seq, hlc, tbl, row_key, op, col, payload, uploaded_by, seen, base, resolves)
                            SELECT start + row_number() OVER (ORDER BY c.n) - 1, append.origin, c.seq, c.hlc::bigint, c.tbl, c.key, c.op, c.col, c.payload, session_user,
                                   c.seen::bigint, c.base, c.resolves::bigint
                            FROM c WHERE c.seq > stored AND c.problem IS NULL ORDER BY c.n
                            RETURNING 1)
                        SELECT max(c.seq), jsonb_agg(jsonb_build_array(c.seq, c.problem) ORDER BY c.n) FILTER (WHERE c.seq > stored AND c.problem IS NOT NULL),
                               (SELECT count(*) FROM kept)
                            INTO top, problems, added FROM c;
                    EXCEPTION WHEN SQLSTATE 'SS001' THEN
                        -- A scope refused one of them (the log's trigger): entry by entry.
                        SELECT max(c.seq), jsonb_agg(jsonb_build_array(c.seq, c.problem) ORDER BY c.n) FILTER (WHERE c.seq > stored AND c.problem IS NOT NULL)
                            INTO top, problems FROM (\(checked(s))) AS c;
                        added := 0;
                        FOR one IN SELECT * FROM (\(checked(s))) AS c WHERE c.seq > stored AND c.problem IS NULL ORDER BY c.n LOOP
                            BEGIN
                                INSERT INTO \(s).log (position, origin, origin_seq, hlc, tbl, row_key, op, col, payload, uploaded_by, seen, base, resolves)
                                VALUES (start + added, append.origin, one.seq, one.hlc::bigint, one.tbl, one.key, one.op, one.col, one.payload, session_user,
                                        one.seen::bigint, one.base, one.resolves::bigint);
                                added := added + 1;
                            EXCEPTION WHEN SQLSTATE 'SS001' THEN
                                problems := coalesce(problems, '[]'::jsonb) || jsonb_build_array(jsonb_build_array(one.seq, SQLERRM));
                            END;
                        END LOOP;
                    END;
                END IF;
                IF top IS NULL OR top <= stored THEN
                    added := 0;
                    RETURN;
                END IF;
                PERFORM \(s).mark_concurrent_edits(start, start + added);
                UPDATE \(s).counter SET next = start + added WHERE id = 1;
                UPDATE \(s).origins o SET uploaded_through = top WHERE o.origin = append.origin;
                IF problems IS NOT NULL THEN
                    INSERT INTO \(s).refusals (origin, origin_seq, uploaded_by, reason)
                    SELECT append.origin, (p ->> 0)::bigint, session_user, p ->> 1 FROM jsonb_array_elements(problems) AS r(p)
                    ON CONFLICT DO NOTHING;
                    refused := problems::text;
                END IF;
                -- With scopes, the log's trigger rings each scope's doorbell.
                IF to_regclass('\(s).scoped_tables') IS NULL THEN
                    PERFORM pg_notify('\(s)_log', '');
                END IF;
                stored := top;
            END
            $f$
            """,
        ]
    }
}
#endif
