-- Write counts per key and minute need no crash safety: an UNLOGGED table skips the write-ahead log,
-- so a transaction that only counts commits without waiting for a WAL flush (PostgreSQL,
-- RecordTransactionCommit: no WAL written, no synchronous flush). After a crash of the database the
-- table is emptied and every key starts a fresh window; standbys do not receive it. docs/reliability.md.
ALTER TABLE "rate_limits" SET UNLOGGED;
