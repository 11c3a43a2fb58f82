-- Named accounts and the audit trail.
--
-- Accounts are never deleted, only disabled: a name in the audit trail keeps naming one person. Names are lower case
-- (the bootstrap accounts of the environment match case-insensitively, so a clash is caught either way).
CREATE TABLE account (
    name          varchar(63)  PRIMARY KEY CHECK (name ~ '^[a-z0-9][a-z0-9._@-]*$'),
    role          varchar(8)   NOT NULL CHECK (role IN ('OPERATOR', 'VIEWER')),
    password_hash varchar(100) NOT NULL CHECK (password_hash LIKE '{bcrypt}$2%'),
    enabled       boolean      NOT NULL,
    created_at    timestamptz  NOT NULL DEFAULT now(),
    version       bigint       NOT NULL
);

-- One row per write request, appended in the transaction of the change it describes (a failed write in a
-- transaction of its own). Nothing updates a row; the retention job deletes the old ones.
CREATE TABLE audit_event (
    id          bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    occurred_at timestamptz NOT NULL DEFAULT now(),
    username    varchar(63) NOT NULL,
    method      varchar(8)  NOT NULL,
    path        text        NOT NULL,
    resource    text        NOT NULL,
    etag_before varchar(24),
    etag_after  varchar(24),
    status      integer     NOT NULL CHECK (status BETWEEN 100 AND 599),
    dry_run     boolean     NOT NULL DEFAULT false
);

CREATE INDEX audit_event_occurred_at ON audit_event (occurred_at);
CREATE INDEX audit_event_username ON audit_event (username, id);
CREATE INDEX audit_event_resource ON audit_event (resource text_pattern_ops);
