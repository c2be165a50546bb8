-- One-time sign-in links, stored as the SHA-256 hash of their token (SQLite's migration 7). Times are
-- ISO-8601 UTC text in the "C" collation, so expiry compares byte by byte exactly as in SQLite. A link
-- is used by one conditional UPDATE (used_at IS NULL AND expires_at > now), so it signs in once.
CREATE TABLE sign_in_links (
  token_hash text PRIMARY KEY,
  email text NOT NULL,
  created_at text COLLATE "C" NOT NULL,
  expires_at text COLLATE "C" NOT NULL,
  used_at text COLLATE "C"
);
CREATE INDEX sign_in_links_email ON sign_in_links (email, created_at);
CREATE INDEX sign_in_links_expiry ON sign_in_links (expires_at);
