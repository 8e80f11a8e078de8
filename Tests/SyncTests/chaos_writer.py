"""A foreign writer for the chaos test: random transactions on one replica's file, nearly all
of one row.

    python3 chaos_writer.py DATABASE SEED COUNT

Each transaction is one of: a new customer, a customer's new email, a deleted customer, a new
order, an order moved to another customer, a changed order, a deleted order, and rarely a bulk
of new orders (every free key of 48 drawn, `OR IGNORE`): a run of inserts long enough for the
other replicas to apply it without the capture triggers (`Journal.HandJournaling`). Keys and emails
come from small pools that every replica's writer shares, so replicas collide on primary keys,
on the UNIQUE email, and on rows that others reference (the schema's `ON DELETE SET NULL`).
A transaction the schema refuses here is skipped, as an app would. `foreign_keys` is on.

Prints `committed N` at the end.
"""
import random
import sqlite3
import sys
import time

CUSTOMER_KEYS = 30
ORDER_KEYS = 120
EMAILS = 20


def main(path: str, seed: int, count: int) -> None:
    rng = random.Random(seed)
    db = sqlite3.connect(path, timeout=30, isolation_level=None)
    db.execute("PRAGMA foreign_keys=ON")

    def some_customer():
        row = db.execute("SELECT id FROM customers ORDER BY random() LIMIT 1").fetchone()
        return row[0] if row else None

    def some_order():
        row = db.execute("SELECT id FROM orders ORDER BY random() LIMIT 1").fetchone()
        return row[0] if row else None

    def bulk_orders():
        for key in rng.sample(range(1, ORDER_KEYS + 1), 48):
            db.execute("INSERT OR IGNORE INTO orders (id, purchase_num, status, customer_id) VALUES (?, ?, 'bulk', ?)",
                       (key, rng.randrange(100), some_customer()))

    def email():
        return f"c{rng.randrange(EMAILS)}@example.com" if rng.random() < 0.9 else None

    operations = [
        (3, lambda: db.execute("INSERT INTO customers (id, name, email) VALUES (?, ?, ?)",
                               (rng.randrange(1, CUSTOMER_KEYS + 1), f"n{rng.randrange(1000)}", email()))),
        (2, lambda: db.execute("UPDATE customers SET email = ? WHERE id = ?", (email(), some_customer()))),
        (1, lambda: db.execute("DELETE FROM customers WHERE id = ?", (some_customer(),))),
        (4, lambda: db.execute("INSERT INTO orders (id, purchase_num, status, customer_id) VALUES (?, ?, 'new', ?)",
                               (rng.randrange(1, ORDER_KEYS + 1), rng.randrange(100), some_customer()))),
        (2, lambda: db.execute("UPDATE orders SET customer_id = ? WHERE id = ?", (some_customer(), some_order()))),
        (2, lambda: db.execute("UPDATE orders SET purchase_num = ?, status = ? WHERE id = ?",
                               (rng.randrange(100), rng.choice(["new", "paid", "shipped"]), some_order()))),
        (1, lambda: db.execute("DELETE FROM orders WHERE id = ?", (some_order(),))),
        (0.2, bulk_orders),
    ]
    weights = [weight for weight, _ in operations]
    committed = 0
    for _ in range(count):
        operation = rng.choices(operations, weights)[0][1]
        try:
            db.execute("BEGIN IMMEDIATE")
            operation()
            db.execute("COMMIT")
            committed += 1
        except sqlite3.IntegrityError:
            db.execute("ROLLBACK")
        time.sleep(rng.random() * 0.01)
    db.close()
    print(f"committed {committed}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
