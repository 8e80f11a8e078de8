-- Customers, and the order's customer (a foreign key; deleting a customer keeps its orders).
CREATE TABLE customers (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    email TEXT UNIQUE
);

ALTER TABLE orders ADD COLUMN customer_id INTEGER REFERENCES customers (id) ON DELETE SET NULL;

CREATE INDEX orders_by_customer ON orders (customer_id);
