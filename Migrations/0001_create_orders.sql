-- The example app's orders.
CREATE TABLE orders (
    id INTEGER PRIMARY KEY,
    purchase_num INTEGER NOT NULL CHECK (purchase_num >= 0),
    status TEXT NOT NULL,
    note TEXT,
    created_at REAL NOT NULL DEFAULT ((julianday('now') - 2440587.5) * 86400.0),
    updated_at REAL
);
