-- Who first fetched a stored download (the paying user: the key's owner, else the key id). Another
-- user is given the stored download or its transcript only while the link still answers
-- (docs/caching-and-billing.md, "Another user's repeat"). Rows stored before this column keep NULL:
-- every user is then checked against the link.
ALTER TABLE "media_cache" ADD COLUMN "fetched_by" text;
