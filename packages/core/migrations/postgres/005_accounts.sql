-- Accounts exist from the first sign-in or credit grant; emails are kept lower-cased.
CREATE TABLE accounts (
  email text PRIMARY KEY,
  credits integer NOT NULL DEFAULT 0 CHECK (credits >= 0),
  created_at text NOT NULL,
  updated_at text NOT NULL
);
