// The schema, as an ordered list of migrations applied once each. A migration is written once in the
// shared SQL subset; the few type names that differ between SQLite and PostgreSQL are `{{tokens}}`.
// Never edit a migration that has shipped: add a new one.

import type { Db, Dialect } from './types.ts';

const TOKENS: Record<string, Record<Dialect, string>> = {
  id: { sqlite: 'INTEGER PRIMARY KEY AUTOINCREMENT', postgres: 'BIGSERIAL PRIMARY KEY' },
  money: { sqlite: 'TEXT', postgres: 'NUMERIC(78,0)' },
  blob: { sqlite: 'BLOB', postgres: 'BYTEA' },
};

export function renderSql(sql: string, dialect: Dialect): string {
  return sql.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    const token = TOKENS[name];
    if (!token) throw new Error(`unknown schema token {{${name}}}`);
    return token[dialect];
  });
}

/** Append-only tables refuse UPDATE and DELETE at the database level, not only in code. */
function appendOnly(table: string, dialect: Dialect): string {
  if (dialect === 'sqlite') {
    return `
      CREATE TRIGGER ${table}_no_update BEFORE UPDATE ON ${table}
        BEGIN SELECT RAISE(ABORT, '${table} is append-only'); END;
      CREATE TRIGGER ${table}_no_delete BEFORE DELETE ON ${table}
        BEGIN SELECT RAISE(ABORT, '${table} is append-only'); END;`;
  }
  return `
    CREATE OR REPLACE FUNCTION ${table}_append_only() RETURNS trigger LANGUAGE plpgsql AS $f$
      BEGIN RAISE EXCEPTION '${table} is append-only'; END $f$;
    CREATE TRIGGER ${table}_no_change BEFORE UPDATE OR DELETE ON ${table}
      FOR EACH ROW EXECUTE FUNCTION ${table}_append_only();`;
}

export type Migration = { version: number; name: string; sql: (dialect: Dialect) => string };

export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'accounts, sessions, staff and the audit log',
    sql: (d) => `
      CREATE TABLE users (
        id {{id}},
        phone TEXT NOT NULL UNIQUE,
        area_code TEXT NOT NULL,
        national_number TEXT NOT NULL,
        password_hash TEXT NOT NULL,
        trade_pin_hash TEXT,
        withdraw_pin_hash TEXT,
        email TEXT,
        totp_secret TEXT,
        totp_pending_secret TEXT,
        status INTEGER NOT NULL DEFAULT 1,
        id_status TEXT NOT NULL DEFAULT 'none',
        invite_code TEXT NOT NULL UNIQUE,
        invited_by BIGINT REFERENCES users(id),
        is_demo INTEGER NOT NULL DEFAULT 0,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL
      );
      CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        user_id BIGINT NOT NULL REFERENCES users(id),
        token_hash TEXT NOT NULL UNIQUE,
        created_at BIGINT NOT NULL,
        last_seen_at BIGINT NOT NULL,
        expires_at BIGINT NOT NULL,
        revoked_at BIGINT,
        user_agent TEXT NOT NULL DEFAULT '',
        ip TEXT NOT NULL DEFAULT ''
      );
      CREATE INDEX sessions_user ON sessions(user_id);
      CREATE TABLE login_failures (
        id {{id}},
        subject TEXT NOT NULL,
        at BIGINT NOT NULL
      );
      CREATE INDEX login_failures_subject ON login_failures(subject, at);
      CREATE TABLE captchas (
        id TEXT PRIMARY KEY,
        secret TEXT NOT NULL,
        expires_at BIGINT NOT NULL,
        used_at BIGINT
      );
      CREATE TABLE sms_codes (
        id {{id}},
        phone TEXT NOT NULL,
        purpose TEXT NOT NULL,
        code_hash TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        expires_at BIGINT NOT NULL,
        used_at BIGINT,
        attempts INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX sms_codes_phone ON sms_codes(phone, purpose, created_at);
      CREATE TABLE staff (
        id {{id}},
        username TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        totp_secret TEXT NOT NULL,
        role TEXT NOT NULL,
        status INTEGER NOT NULL DEFAULT 1,
        created_at BIGINT NOT NULL
      );
      CREATE TABLE staff_sessions (
        id TEXT PRIMARY KEY,
        staff_id BIGINT NOT NULL REFERENCES staff(id),
        token_hash TEXT NOT NULL UNIQUE,
        created_at BIGINT NOT NULL,
        last_seen_at BIGINT NOT NULL,
        expires_at BIGINT NOT NULL,
        revoked_at BIGINT
      );
      CREATE TABLE audit_log (
        id {{id}},
        at BIGINT NOT NULL,
        staff_id BIGINT REFERENCES staff(id),
        action TEXT NOT NULL,
        target_type TEXT NOT NULL,
        target_id TEXT NOT NULL,
        reason TEXT NOT NULL,
        detail TEXT NOT NULL,
        prev_hash TEXT NOT NULL,
        hash TEXT NOT NULL UNIQUE
      );
      CREATE INDEX audit_log_action ON audit_log(action, id);
      ${appendOnly('audit_log', d)}
    `,
  },
  {
    version: 2,
    name: 'engine journal, snapshots and checkpoints',
    sql: () => `
      CREATE TABLE engine_journal (
        seq BIGINT PRIMARY KEY,
        command TEXT NOT NULL
      );
      CREATE TABLE engine_snapshots (
        seq BIGINT PRIMARY KEY,
        state_hash TEXT NOT NULL,
        state TEXT NOT NULL,
        created_at BIGINT NOT NULL
      );
      CREATE TABLE engine_checkpoints (
        seq BIGINT PRIMARY KEY,
        state_hash TEXT NOT NULL,
        created_at BIGINT NOT NULL
      );
    `,
  },
  {
    version: 3,
    name: 'read model of the engine: transfers, orders, trades',
    sql: () => `
      CREATE TABLE ledger_transfers (
        transfer_id TEXT PRIMARY KEY,
        seq BIGINT NOT NULL,
        at BIGINT NOT NULL,
        debit TEXT NOT NULL,
        credit TEXT NOT NULL,
        debit_owner TEXT NOT NULL,
        credit_owner TEXT NOT NULL,
        asset TEXT NOT NULL,
        amount {{money}} NOT NULL,
        cause TEXT NOT NULL,
        link TEXT NOT NULL
      );
      CREATE INDEX ledger_transfers_debit_owner ON ledger_transfers(debit_owner, seq);
      CREATE INDEX ledger_transfers_credit_owner ON ledger_transfers(credit_owner, seq);
      CREATE TABLE orders (
        id BIGINT PRIMARY KEY,
        command_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        instrument_id TEXT NOT NULL,
        side TEXT NOT NULL,
        order_type TEXT NOT NULL,
        time_in_force TEXT NOT NULL,
        price_ticks BIGINT NOT NULL,
        qty_lots BIGINT NOT NULL,
        filled_lots BIGINT NOT NULL DEFAULT 0,
        status TEXT NOT NULL,
        reason TEXT NOT NULL DEFAULT '',
        trigger_spec TEXT,
        hold_asset TEXT NOT NULL,
        hold_amount {{money}} NOT NULL,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        last_seq BIGINT NOT NULL
      );
      CREATE INDEX orders_user ON orders(user_id, id);
      CREATE INDEX orders_user_status ON orders(user_id, status);
      CREATE TABLE trades (
        id BIGINT PRIMARY KEY,
        seq BIGINT NOT NULL,
        instrument_id TEXT NOT NULL,
        price_ticks BIGINT NOT NULL,
        qty_lots BIGINT NOT NULL,
        taker_side TEXT NOT NULL,
        maker_order_id BIGINT NOT NULL,
        taker_order_id BIGINT NOT NULL,
        maker_user_id TEXT NOT NULL,
        taker_user_id TEXT NOT NULL,
        notional {{money}} NOT NULL,
        maker_fee {{money}} NOT NULL,
        taker_fee {{money}} NOT NULL,
        at BIGINT NOT NULL
      );
      CREATE INDEX trades_instrument ON trades(instrument_id, id);
      CREATE INDEX trades_maker_user ON trades(maker_user_id, id);
      CREATE INDEX trades_taker_user ON trades(taker_user_id, id);
    `,
  },
  {
    version: 4,
    name: 'market data: simulator state and candles',
    sql: () => `
      CREATE TABLE market_state (
        id TEXT PRIMARY KEY,
        state TEXT NOT NULL,
        updated_at BIGINT NOT NULL
      );
      CREATE TABLE candles (
        instrument_id TEXT NOT NULL,
        interval TEXT NOT NULL,
        start_ms BIGINT NOT NULL,
        open_ticks BIGINT NOT NULL,
        high_ticks BIGINT NOT NULL,
        low_ticks BIGINT NOT NULL,
        close_ticks BIGINT NOT NULL,
        volume_lots BIGINT NOT NULL,
        PRIMARY KEY (instrument_id, interval, start_ms)
      );
    `,
  },
  {
    version: 5,
    name: 'stock trading: after-market orders, watchlist',
    sql: () => `
      ALTER TABLE orders ADD COLUMN queued INTEGER NOT NULL DEFAULT 0;
      CREATE INDEX orders_instrument_status ON orders(instrument_id, status);
      CREATE TABLE watchlist (
        user_id BIGINT NOT NULL,
        instrument_id TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        PRIMARY KEY (user_id, instrument_id)
      );
    `,
  },
  {
    version: 6,
    name: 'content: news, notices, ads, personal messages and their read state',
    sql: () => `
      CREATE TABLE content_items (
        id {{id}},
        kind TEXT NOT NULL CHECK (kind IN ('ad', 'notice', 'news')),
        status TEXT NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'published', 'unpublished')),
        title_en TEXT NOT NULL DEFAULT '',
        title_pt TEXT NOT NULL DEFAULT '',
        summary_en TEXT NOT NULL DEFAULT '',
        summary_pt TEXT NOT NULL DEFAULT '',
        body_en TEXT NOT NULL DEFAULT '',
        body_pt TEXT NOT NULL DEFAULT '',
        source_en TEXT NOT NULL DEFAULT '',
        source_pt TEXT NOT NULL DEFAULT '',
        image_en TEXT NOT NULL DEFAULT '',
        image_pt TEXT NOT NULL DEFAULT '',
        link TEXT NOT NULL DEFAULT '',
        seed_key TEXT UNIQUE,
        created_by BIGINT REFERENCES staff(id),
        updated_by BIGINT REFERENCES staff(id),
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        published_at BIGINT,
        unpublished_at BIGINT
      );
      CREATE INDEX content_items_feed ON content_items(kind, status, published_at);
      CREATE TABLE user_messages (
        id {{id}},
        user_id BIGINT NOT NULL REFERENCES users(id),
        title_en TEXT NOT NULL DEFAULT '',
        title_pt TEXT NOT NULL DEFAULT '',
        body_en TEXT NOT NULL DEFAULT '',
        body_pt TEXT NOT NULL DEFAULT '',
        seed_key TEXT UNIQUE,
        created_by BIGINT REFERENCES staff(id),
        created_at BIGINT NOT NULL,
        read_at BIGINT
      );
      CREATE INDEX user_messages_user ON user_messages(user_id, created_at);
      CREATE TABLE notice_reads (
        user_id BIGINT NOT NULL REFERENCES users(id),
        item_id BIGINT NOT NULL REFERENCES content_items(id),
        read_at BIGINT NOT NULL,
        PRIMARY KEY (user_id, item_id)
      );
    `,
  },
  {
    version: 7,
    name: 'order views find their trades by order',
    sql: () => `
      CREATE INDEX trades_maker_order ON trades(maker_order_id);
      CREATE INDEX trades_taker_order ON trades(taker_order_id);
    `,
  },
  {
    version: 8,
    // SQLite only: \`BIGINT PRIMARY KEY\` is not an alias of the rowid (only \`INTEGER PRIMARY KEY\` is),
    // so these tables kept a second B-tree for their key, written on every command and read on every
    // order update. Rebuilt with the key as the rowid; PostgreSQL's are already plain keys.
    name: 'sqlite: engine journal, orders and trades keyed by their rowid',
    sql: (d) =>
      d !== 'sqlite'
        ? ''
        : `
      CREATE TABLE engine_journal_v8 (
        seq INTEGER PRIMARY KEY,
        command TEXT NOT NULL
      );
      INSERT INTO engine_journal_v8 (seq, command) SELECT seq, command FROM engine_journal;
      DROP TABLE engine_journal;
      ALTER TABLE engine_journal_v8 RENAME TO engine_journal;
      CREATE TABLE orders_v8 (
        id INTEGER PRIMARY KEY,
        command_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        instrument_id TEXT NOT NULL,
        side TEXT NOT NULL,
        order_type TEXT NOT NULL,
        time_in_force TEXT NOT NULL,
        price_ticks BIGINT NOT NULL,
        qty_lots BIGINT NOT NULL,
        filled_lots BIGINT NOT NULL DEFAULT 0,
        status TEXT NOT NULL,
        reason TEXT NOT NULL DEFAULT '',
        trigger_spec TEXT,
        hold_asset TEXT NOT NULL,
        hold_amount TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        last_seq BIGINT NOT NULL,
        queued INTEGER NOT NULL DEFAULT 0
      );
      INSERT INTO orders_v8 SELECT id, command_id, user_id, instrument_id, side, order_type, time_in_force, price_ticks,
        qty_lots, filled_lots, status, reason, trigger_spec, hold_asset, hold_amount, created_at, updated_at, last_seq,
        queued FROM orders;
      DROP TABLE orders;
      ALTER TABLE orders_v8 RENAME TO orders;
      CREATE INDEX orders_user ON orders(user_id, id);
      CREATE INDEX orders_user_status ON orders(user_id, status);
      CREATE INDEX orders_instrument_status ON orders(instrument_id, status);
      CREATE TABLE trades_v8 (
        id INTEGER PRIMARY KEY,
        seq BIGINT NOT NULL,
        instrument_id TEXT NOT NULL,
        price_ticks BIGINT NOT NULL,
        qty_lots BIGINT NOT NULL,
        taker_side TEXT NOT NULL,
        maker_order_id BIGINT NOT NULL,
        taker_order_id BIGINT NOT NULL,
        maker_user_id TEXT NOT NULL,
        taker_user_id TEXT NOT NULL,
        notional TEXT NOT NULL,
        maker_fee TEXT NOT NULL,
        taker_fee TEXT NOT NULL,
        at BIGINT NOT NULL
      );
      INSERT INTO trades_v8 SELECT id, seq, instrument_id, price_ticks, qty_lots, taker_side, maker_order_id,
        taker_order_id, maker_user_id, taker_user_id, notional, maker_fee, taker_fee, at FROM trades;
      DROP TABLE trades;
      ALTER TABLE trades_v8 RENAME TO trades;
      CREATE INDEX trades_instrument ON trades(instrument_id, id);
      CREATE INDEX trades_maker_user ON trades(maker_user_id, id);
      CREATE INDEX trades_taker_user ON trades(taker_user_id, id);
      CREATE INDEX trades_maker_order ON trades(maker_order_id);
      CREATE INDEX trades_taker_order ON trades(taker_order_id);
    `,
  },
  {
    version: 9,
    // Snapshots made off the writer (engine-host/snapshot-worker.ts) are stored gzipped, ~6x smaller:
    // the writer's insert and the sync after it are that much shorter. `state` is then ''.
    name: 'engine snapshots may be stored gzipped',
    sql: () => `ALTER TABLE engine_snapshots ADD COLUMN state_gzip {{blob}};`,
  },
  {
    version: 10,
    // The (instrument, status) index served one query, the after-market orders still open (once per
    // process), yet every order insert and every status change wrote to it. A partial index of the
    // queued orders (few) serves that query, and an order placed in market hours never touches it.
    name: 'orders: the after-market index covers queued orders only',
    sql: () => `
      DROP INDEX orders_instrument_status;
      CREATE INDEX orders_after_market ON orders(instrument_id) WHERE queued = 1;
    `,
  },
  {
    version: 11,
    // The engine's live order now says whether it was placed after market (OrderRecord.afterMarket), so
    // the stock service no longer looks the open after-market orders up: nothing reads this index.
    name: 'orders: drop the after-market index',
    sql: () => `DROP INDEX orders_after_market;`,
  },
  {
    version: 12,
    // The last time step whose TOTP code signed each staff member or customer in: a code is good once
    // (RFC 6238 §5.2), not for the ~90 s its window of three steps would otherwise accept it.
    name: 'staff and users: last TOTP step used',
    sql: () => `
      ALTER TABLE staff ADD COLUMN totp_last_step BIGINT NOT NULL DEFAULT 0;
      ALTER TABLE users ADD COLUMN totp_last_step BIGINT NOT NULL DEFAULT 0;
    `,
  },
  {
    version: 13,
    // Idempotency keys honoured for 24 hours whatever the load (the engine's window forgets an id after
    // 100,000 commands): written with the command's projection, pruned by created_at
    // (apps/server/src/engine-host/idempotency-keys.ts, docs/decisions/0015-bounded-growth.md).
    name: 'idempotency keys kept 24 hours',
    sql: () => `
      CREATE TABLE idempotency_keys (
        command_id TEXT PRIMARY KEY,
        body TEXT NOT NULL,
        order_id BIGINT,
        outcome TEXT NOT NULL,
        created_at BIGINT NOT NULL
      );
      CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);
    `,
  },
  {
    version: 14,
    // A market maker's quote cancelled without a fill leaves no orders row; its id goes into these
    // ranges (merged as neighbours arrive), so the reconciliation still accounts for every id given out.
    name: 'order ids of quotes that never traded, as ranges',
    sql: () => `
      CREATE TABLE unrecorded_order_ids (
        from_id BIGINT PRIMARY KEY,
        to_id BIGINT NOT NULL
      );
      CREATE UNIQUE INDEX unrecorded_order_ids_to ON unrecorded_order_ids(to_id);
    `,
  },
  {
    version: 15,
    // The customer's own bank accounts (SPEC §3), soft-deleted so a later withdrawal keeps its link. The
    // 24 h withdrawal lock is derived from the newest created_at, deleted rows included (deleting one
    // must not lift the lock).
    name: 'bank accounts',
    sql: () => `
      CREATE TABLE bank_accounts (
        id {{id}},
        user_id BIGINT NOT NULL REFERENCES users(id),
        country TEXT NOT NULL CHECK (country IN ('IN', 'BR')),
        holder_name TEXT NOT NULL,
        bank_name TEXT NOT NULL,
        account_number TEXT NOT NULL,
        ifsc TEXT,
        branch TEXT,
        pix_key TEXT,
        tax_id TEXT,
        created_at BIGINT NOT NULL,
        deleted_at BIGINT
      );
      CREATE INDEX bank_accounts_user ON bank_accounts(user_id, created_at);
      `,
  },
  {
    version: 16,
    // KYC life cycle. Photos are kept in the database (re-encoded JPEG as base64 TEXT): both dialects
    // store text alike and nothing lands under a web root. users.id_status stays the current state.
    name: 'kyc submissions and their transition table',
    sql: () => `
      CREATE TABLE kyc_transitions (
        from_status TEXT NOT NULL,
        to_status TEXT NOT NULL,
        PRIMARY KEY (from_status, to_status)
      );
      INSERT INTO kyc_transitions (from_status, to_status) VALUES
        ('none', 'pending'), ('pending', 'succ'), ('pending', 'fail'), ('fail', 'pending');
      CREATE TABLE kyc_submissions (
        id {{id}},
        user_id BIGINT NOT NULL,
        doc_type TEXT NOT NULL,
        full_name TEXT NOT NULL,
        doc_number TEXT NOT NULL,
        front_image TEXT NOT NULL,
        back_image TEXT NOT NULL,
        status TEXT NOT NULL,
        reason TEXT NOT NULL DEFAULT '',
        created_at BIGINT NOT NULL,
        reviewed_at BIGINT,
        reviewed_by BIGINT
      );
      CREATE INDEX kyc_submissions_user ON kyc_submissions(user_id);
      CREATE INDEX kyc_submissions_status ON kyc_submissions(status);
    `,
  },
  {
    version: 17,
    // The one thing a customer changes about themselves on /user/update (SPEC §7 names the call, not its
    // fields): the name the app shows them. Empty means none set.
    name: 'users: nickname',
    sql: () => `ALTER TABLE users ADD COLUMN nickname TEXT NOT NULL DEFAULT '';`,
  },
  {
    version: 18,
    // Fiat deposits (features/deposits): one row per deposit, the allowed moves between states, and the
    // history of every move with its time, actor and reason. Amounts are integer minor units. A proof
    // image is the re-encoded JPEG as base64 TEXT (as KYC photos: outside any web root). credited_at is
    // set once the engine's deposit command for a confirmed row is committed (decision 0018).
    name: 'deposits, their transition table and history',
    sql: () => `
      CREATE TABLE deposit_transitions (
        from_status TEXT NOT NULL,
        to_status TEXT NOT NULL,
        PRIMARY KEY (from_status, to_status)
      );
      INSERT INTO deposit_transitions (from_status, to_status) VALUES
        ('new', 'pending'), ('new', 'awaiting_payment'),
        ('pending', 'confirmed'), ('pending', 'rejected'),
        ('awaiting_payment', 'confirmed'), ('awaiting_payment', 'expired'), ('expired', 'confirmed');
      CREATE TABLE deposits (
        id {{id}},
        user_id BIGINT NOT NULL,
        rail TEXT NOT NULL,
        currency TEXT NOT NULL,
        amount_minor BIGINT NOT NULL,
        status TEXT NOT NULL,
        reference TEXT NOT NULL DEFAULT '',
        proof_image TEXT,
        txid TEXT UNIQUE,
        br_code TEXT,
        expires_at BIGINT,
        reason TEXT NOT NULL DEFAULT '',
        request_id TEXT,
        request_body TEXT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        credited_at BIGINT,
        UNIQUE (user_id, request_id)
      );
      CREATE INDEX deposits_user ON deposits(user_id, id);
      CREATE INDEX deposits_status ON deposits(status);
      CREATE TABLE deposit_history (
        id {{id}},
        deposit_id BIGINT NOT NULL,
        from_status TEXT NOT NULL,
        to_status TEXT NOT NULL,
        at BIGINT NOT NULL,
        actor TEXT NOT NULL,
        actor_id TEXT NOT NULL DEFAULT '',
        reason TEXT NOT NULL DEFAULT ''
      );
      CREATE INDEX deposit_history_deposit ON deposit_history(deposit_id, id);
    `,
  },
  {
    version: 19,
    // Crypto deposits (features/crypto-deposits). A customer's address per network is derived from the
    // network's extended public key at a derivation index allocated here once (unique per network), so
    // an address is never given to two customers. A deposit is recorded once per (network, txid,
    // output index) and moves through crypto_deposit_transitions; its credit is one engine deposit.
    // sandbox_chain_txs is paper mode's sandbox chain (adapters/chain/sandbox): its transactions.
    name: 'crypto deposit addresses, crypto deposits and their transition table, the sandbox chain',
    sql: () => `
      CREATE TABLE crypto_deposit_addresses (
        id {{id}},
        user_id BIGINT NOT NULL REFERENCES users(id),
        network TEXT NOT NULL,
        derivation_index BIGINT NOT NULL,
        address TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        UNIQUE (user_id, network),
        UNIQUE (network, derivation_index),
        UNIQUE (network, address)
      );
      CREATE TABLE crypto_deposit_transitions (
        from_status TEXT NOT NULL,
        to_status TEXT NOT NULL,
        PRIMARY KEY (from_status, to_status)
      );
      INSERT INTO crypto_deposit_transitions (from_status, to_status) VALUES
        ('none', 'seen'), ('none', 'confirming'), ('none', 'below_minimum'),
        ('seen', 'confirming'), ('seen', 'credited'), ('seen', 'failed'),
        ('confirming', 'credited'), ('confirming', 'failed');
      CREATE TABLE crypto_deposits (
        id {{id}},
        user_id BIGINT NOT NULL REFERENCES users(id),
        network TEXT NOT NULL,
        asset TEXT NOT NULL,
        address TEXT NOT NULL,
        txid TEXT NOT NULL,
        output_index INTEGER NOT NULL,
        amount_minor {{money}} NOT NULL,
        confirmations INTEGER NOT NULL,
        status TEXT NOT NULL,
        reason TEXT NOT NULL DEFAULT '',
        transfer_id TEXT,
        seen_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        credited_at BIGINT,
        UNIQUE (network, txid, output_index)
      );
      CREATE INDEX crypto_deposits_user ON crypto_deposits(user_id, id);
      CREATE INDEX crypto_deposits_open ON crypto_deposits(status);
      CREATE TABLE sandbox_chain_txs (
        id {{id}},
        network TEXT NOT NULL,
        asset TEXT NOT NULL,
        txid TEXT NOT NULL UNIQUE,
        output_index INTEGER NOT NULL,
        address TEXT NOT NULL,
        amount_minor {{money}} NOT NULL,
        sent_at BIGINT NOT NULL,
        request_key TEXT UNIQUE
      );
      CREATE INDEX sandbox_chain_txs_address ON sandbox_chain_txs(network, address);
    `,
  },
  {
    version: 20,
    // Withdrawals (features/withdrawals): the customer's address book, the life cycle with its transition
    // table and append-only history, the payout outbox (written in the approval's transaction, keyed by
    // an idempotency key derived from the withdrawal id) and the sandbox rails' own record of payouts,
    // keyed by that key as a real provider dedupes. Amounts are decimal strings at the asset's scale.
    name: 'withdrawals: address book, life cycle, payout outbox, sandbox payouts',
    sql: (dialect) => `
      CREATE TABLE withdraw_addresses (
        id {{id}},
        user_id BIGINT NOT NULL,
        asset TEXT NOT NULL,
        network TEXT NOT NULL,
        address TEXT NOT NULL,
        label TEXT NOT NULL DEFAULT '',
        created_at BIGINT NOT NULL,
        deleted_at BIGINT
      );
      CREATE INDEX withdraw_addresses_user ON withdraw_addresses(user_id);
      CREATE TABLE withdrawal_transitions (
        from_status TEXT NOT NULL,
        to_status TEXT NOT NULL,
        PRIMARY KEY (from_status, to_status)
      );
      INSERT INTO withdrawal_transitions (from_status, to_status) VALUES
        ('requested', 'reviewing'), ('reviewing', 'approved'), ('reviewing', 'rejected'),
        ('reviewing', 'cancelled'), ('approved', 'paying'), ('paying', 'paid'), ('paying', 'failed');
      CREATE TABLE withdrawals (
        id {{id}},
        user_id BIGINT NOT NULL,
        rail TEXT NOT NULL,
        asset TEXT NOT NULL,
        network TEXT,
        wallet TEXT NOT NULL,
        amount TEXT NOT NULL,
        fee TEXT NOT NULL,
        bank_account_id BIGINT,
        address_id BIGINT,
        destination TEXT NOT NULL,
        payout_to TEXT NOT NULL,
        status TEXT NOT NULL,
        reason TEXT NOT NULL DEFAULT '',
        payout_ref TEXT NOT NULL DEFAULT '',
        request_key TEXT,
        request_body TEXT NOT NULL DEFAULT '',
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL
      );
      CREATE INDEX withdrawals_user ON withdrawals(user_id, id);
      CREATE INDEX withdrawals_status ON withdrawals(status);
      CREATE UNIQUE INDEX withdrawals_request_key ON withdrawals(user_id, request_key);
      CREATE TABLE withdrawal_events (
        id {{id}},
        withdrawal_id BIGINT NOT NULL,
        from_status TEXT,
        to_status TEXT NOT NULL,
        at BIGINT NOT NULL,
        reason TEXT NOT NULL DEFAULT '',
        staff_id BIGINT
      );
      CREATE INDEX withdrawal_events_withdrawal ON withdrawal_events(withdrawal_id, id);
      ${appendOnly('withdrawal_events', dialect)}
      CREATE TABLE payout_outbox (
        withdrawal_id BIGINT PRIMARY KEY,
        idempotency_key TEXT NOT NULL UNIQUE,
        rail TEXT NOT NULL,
        status TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        last_error TEXT NOT NULL DEFAULT '',
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL
      );
      CREATE INDEX payout_outbox_status ON payout_outbox(status);
      CREATE TABLE sandbox_payouts (
        idempotency_key TEXT PRIMARY KEY,
        rail TEXT NOT NULL,
        asset TEXT NOT NULL,
        amount TEXT NOT NULL,
        payout_to TEXT NOT NULL,
        provider_ref TEXT NOT NULL,
        outcome TEXT NOT NULL,
        reason TEXT NOT NULL DEFAULT '',
        created_at BIGINT NOT NULL
      );
    `,
  },
  {
    version: 21,
    // Currency exchange quotes and manual adjustments: two life cycles, each with its transition table.
    // Money moves only by engine commands linked back to these rows (exchange_quote:<id>, adjustment:<id>);
    // amounts are decimal strings as quoted or proposed.
    name: 'exchange quotes and manual adjustments with their transition tables',
    sql: () => `
      CREATE TABLE exchange_quote_transitions (
        from_status TEXT NOT NULL,
        to_status TEXT NOT NULL,
        PRIMARY KEY (from_status, to_status)
      );
      INSERT INTO exchange_quote_transitions (from_status, to_status) VALUES
        ('quoted', 'accepted'), ('quoted', 'expired');
      CREATE TABLE exchange_quotes (
        id {{id}},
        user_id BIGINT NOT NULL,
        wallet TEXT NOT NULL,
        from_asset TEXT NOT NULL,
        to_asset TEXT NOT NULL,
        amount TEXT NOT NULL,
        receive TEXT NOT NULL,
        spread_cost TEXT NOT NULL,
        mid_rate TEXT NOT NULL,
        rate TEXT NOT NULL,
        spread_bps INTEGER NOT NULL,
        status TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        expires_at BIGINT NOT NULL,
        decided_at BIGINT
      );
      CREATE INDEX exchange_quotes_user ON exchange_quotes(user_id, id);
      CREATE TABLE adjustment_transitions (
        from_status TEXT NOT NULL,
        to_status TEXT NOT NULL,
        PRIMARY KEY (from_status, to_status)
      );
      INSERT INTO adjustment_transitions (from_status, to_status) VALUES
        ('pending', 'approved'), ('pending', 'rejected');
      CREATE TABLE adjustments (
        id {{id}},
        user_id BIGINT NOT NULL,
        wallet TEXT NOT NULL,
        asset TEXT NOT NULL,
        amount TEXT NOT NULL,
        reason TEXT NOT NULL,
        status TEXT NOT NULL,
        proposed_by BIGINT NOT NULL,
        proposed_at BIGINT NOT NULL,
        decided_by BIGINT,
        decided_at BIGINT,
        decision_reason TEXT NOT NULL DEFAULT '',
        transfer_id TEXT
      );
      CREATE INDEX adjustments_status ON adjustments(status, id);
    `,
  },
  {
    version: 22,
    // When the customer last changed their password, two-factor or withdrawal password: like a new bank
    // account or address, such a change locks withdrawals for 24 hours (DOMAIN.md, withdrawals/lock.ts).
    name: 'users: security_changed_at',
    sql: () => `ALTER TABLE users ADD COLUMN security_changed_at BIGINT NOT NULL DEFAULT 0;`,
  },
  {
    version: 24,
    // Customers' keys for the Binance-shaped trading API (features/open-api). The secret is stored
    // encrypted (AES-256-GCM under the server's API_KEY_ENCRYPTION_KEY): the server must recompute each
    // request's HMAC, so a one-way hash cannot serve. A revoked key keeps its row (revoked_at) for history.
    name: 'api_keys',
    sql: () => `
      CREATE TABLE api_keys (
        id {{id}},
        user_id BIGINT NOT NULL,
        label TEXT NOT NULL,
        api_key TEXT NOT NULL UNIQUE,
        secret_sealed TEXT NOT NULL,
        permission TEXT NOT NULL,
        ips TEXT NOT NULL DEFAULT '',
        created_at BIGINT NOT NULL,
        revoked_at BIGINT,
        last_used_at BIGINT,
        last_used_ip TEXT
      );
      CREATE INDEX api_keys_user ON api_keys(user_id, id);
    `,
  },
  {
    version: 25,
    // Perpetual contracts (features/perpetuals, decision 0028). Take-profit and stop-loss are held by the
    // host (the engine has no position triggers): one row per customer and contract. The customer's
    // liquidations, ADL and funding payments are records the service writes from its own commands'
    // results, so the screens show each with its reason without parsing the journal. Funding slots
    // remember which 8-hour instants were applied, so a restart never pays one twice.
    name: 'perpetuals',
    sql: () => `
      CREATE TABLE perp_triggers (
        user_id TEXT NOT NULL,
        instrument_id TEXT NOT NULL,
        take_profit_ticks BIGINT,
        stop_loss_ticks BIGINT,
        updated_at BIGINT NOT NULL,
        PRIMARY KEY (user_id, instrument_id)
      );
      CREATE TABLE perp_records (
        id {{id}},
        record_key TEXT NOT NULL UNIQUE,
        user_id TEXT NOT NULL,
        instrument_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        side TEXT NOT NULL,
        size_lots BIGINT NOT NULL,
        price_ticks BIGINT NOT NULL,
        bankruptcy_ticks BIGINT NOT NULL,
        rate_ppm INTEGER NOT NULL,
        amount {{money}} NOT NULL,
        insurance_fund {{money}} NOT NULL,
        at BIGINT NOT NULL
      );
      CREATE INDEX perp_records_user ON perp_records(user_id, kind, id);
      CREATE INDEX perp_records_kind ON perp_records(kind, id);
      CREATE TABLE perp_funding_slots (
        instrument_id TEXT NOT NULL,
        slot_at BIGINT NOT NULL,
        rate_ppm INTEGER NOT NULL,
        mark_ticks BIGINT NOT NULL,
        paid {{money}} NOT NULL,
        PRIMARY KEY (instrument_id, slot_at)
      );
    `,
  },
  {
    version: 26,
    // A perpetual position's life, open to closed (features/perpetuals/position-history.ts, decision 0029),
    // projected from the engine's position_changed, trade and funding events in the journal's transaction:
    // the history tab's closed positions with entry and exit averages, realised P&L, fees, funding and why
    // it closed. last_* are the engine's figures after the last change, to take the next one's difference.
    name: 'perpetual position history',
    sql: () => `
      CREATE TABLE perp_positions (
        id {{id}},
        user_id TEXT NOT NULL,
        instrument_id TEXT NOT NULL,
        side TEXT NOT NULL,
        opened_at BIGINT NOT NULL,
        closed_at BIGINT,
        reason TEXT,
        max_lots BIGINT NOT NULL,
        open_lots BIGINT NOT NULL,
        open_notional {{money}} NOT NULL,
        close_lots BIGINT NOT NULL,
        close_notional {{money}} NOT NULL,
        realised_pnl {{money}} NOT NULL,
        fees {{money}} NOT NULL,
        funding {{money}} NOT NULL,
        last_size BIGINT NOT NULL,
        last_entry {{money}} NOT NULL,
        last_realised {{money}} NOT NULL
      );
      CREATE INDEX perp_positions_live ON perp_positions(user_id, instrument_id, closed_at);
      CREATE INDEX perp_positions_closed ON perp_positions(user_id, closed_at, id);
    `,
  },
  {
    version: 27,
    // IPO subscription (features/ipo, decision 0031). An IPO is created by one staff member and
    // published by another; its draw seed is generated at the open (seed_hash published then, seed
    // revealed at the draw). One application per customer per IPO; its bids are JSON; hold_id is the
    // engine funds hold (online: at application; offline: at payment); settled_at marks the engine's
    // settle_allotment done and unlocked_at the listing day's release of the locked shares. Both life
    // cycles move only along their transition tables, each move recorded in ipo_application_history.
    name: 'ipos, ipo applications, their transitions and history, auto-subscribe',
    sql: () => `
      CREATE TABLE ipo_transitions (
        from_status TEXT NOT NULL,
        to_status TEXT NOT NULL,
        PRIMARY KEY (from_status, to_status)
      );
      INSERT INTO ipo_transitions (from_status, to_status) VALUES
        ('draft', 'upcoming'), ('draft', 'rejected'), ('upcoming', 'open'), ('open', 'closed'),
        ('closed', 'allotted'), ('allotted', 'listed');
      CREATE TABLE ipos (
        id {{id}},
        issuer TEXT NOT NULL,
        exchange TEXT NOT NULL,
        symbol TEXT NOT NULL,
        name TEXT NOT NULL,
        currency TEXT NOT NULL,
        price_low_minor BIGINT NOT NULL,
        price_high_minor BIGINT NOT NULL,
        lot_size BIGINT NOT NULL,
        total_shares BIGINT NOT NULL,
        retail_pct INTEGER NOT NULL,
        nii_pct INTEGER NOT NULL,
        qib_pct INTEGER NOT NULL,
        opens_at BIGINT NOT NULL,
        closes_at BIGINT NOT NULL,
        listing_at BIGINT NOT NULL,
        status TEXT NOT NULL,
        seed TEXT,
        seed_hash TEXT,
        draw_mode TEXT,
        drawn_at BIGINT,
        listed_at BIGINT,
        note TEXT NOT NULL DEFAULT '',
        created_by BIGINT NOT NULL,
        approved_by BIGINT,
        review_reason TEXT NOT NULL DEFAULT '',
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        UNIQUE (exchange, symbol)
      );
      CREATE INDEX ipos_status ON ipos(status, opens_at);
      CREATE TABLE ipo_application_transitions (
        from_status TEXT NOT NULL,
        to_status TEXT NOT NULL,
        PRIMARY KEY (from_status, to_status)
      );
      INSERT INTO ipo_application_transitions (from_status, to_status) VALUES
        ('new', 'applying'), ('applying', 'unsubscribed'), ('applying', 'waiting_allocated'),
        ('waiting_allocated', 'allocated'), ('waiting_allocated', 'not_allotted'),
        ('waiting_allocated', 'wait_for_payment'), ('wait_for_payment', 'paid'),
        ('wait_for_payment', 'forfeited');
      CREATE TABLE ipo_applications (
        id {{id}},
        ipo_id BIGINT NOT NULL,
        user_id BIGINT NOT NULL,
        channel TEXT NOT NULL,
        auto INTEGER NOT NULL DEFAULT 0,
        bids TEXT NOT NULL,
        demand_lots BIGINT NOT NULL,
        hold_minor BIGINT NOT NULL,
        hold_id TEXT,
        status TEXT NOT NULL,
        allotted_shares BIGINT NOT NULL DEFAULT 0,
        allotted_minor BIGINT NOT NULL DEFAULT 0,
        payment_due_at BIGINT,
        reason TEXT NOT NULL DEFAULT '',
        settled_at BIGINT,
        unlocked_at BIGINT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        UNIQUE (ipo_id, user_id)
      );
      CREATE INDEX ipo_applications_user ON ipo_applications(user_id, id);
      CREATE INDEX ipo_applications_ipo ON ipo_applications(ipo_id, status);
      CREATE TABLE ipo_application_history (
        id {{id}},
        application_id BIGINT NOT NULL,
        from_status TEXT NOT NULL,
        to_status TEXT NOT NULL,
        at BIGINT NOT NULL,
        actor TEXT NOT NULL,
        reason TEXT NOT NULL DEFAULT ''
      );
      CREATE INDEX ipo_application_history_app ON ipo_application_history(application_id, id);
      CREATE TABLE ipo_auto_apply (
        user_id BIGINT PRIMARY KEY,
        enabled INTEGER NOT NULL,
        updated_at BIGINT NOT NULL
      );
      CREATE TABLE ipo_auto_apply_log (
        ipo_id BIGINT NOT NULL,
        user_id BIGINT NOT NULL,
        outcome TEXT NOT NULL,
        reason TEXT NOT NULL DEFAULT '',
        at BIGINT NOT NULL,
        PRIMARY KEY (ipo_id, user_id)
      );
    `,
  },
  {
    version: 28,
    // Block trades (features/block-trades): offers staff create and a second staff member approves, and
    // customers' bids in the offer's block window. Each moves only along its transition table; money
    // moves only through engine commands whose ids derive from the row (hold block-bid:<id>, settlement
    // block-settle:<offer>:<batch>, unlock of lock:block-bid:<id>), so a restart re-sends what it must.
    // block_hni lists customers staff marked HNI (eligible without the wallet threshold).
    name: 'block offers and bids with their transition tables, HNI marks',
    sql: () => `
      CREATE TABLE block_offer_transitions (
        from_status TEXT NOT NULL,
        to_status TEXT NOT NULL,
        PRIMARY KEY (from_status, to_status)
      );
      INSERT INTO block_offer_transitions (from_status, to_status) VALUES
        ('pending_approval', 'published'), ('pending_approval', 'rejected'), ('published', 'settled');
      CREATE TABLE block_offers (
        id {{id}},
        instrument_id TEXT NOT NULL,
        quantity BIGINT NOT NULL,
        lot BIGINT NOT NULL,
        price_ticks BIGINT NOT NULL,
        reference_ticks BIGINT NOT NULL,
        band_bps INTEGER NOT NULL,
        seller TEXT NOT NULL,
        opens_at BIGINT NOT NULL,
        closes_at BIGINT NOT NULL,
        unlocks_at BIGINT NOT NULL,
        status TEXT NOT NULL,
        created_by BIGINT NOT NULL,
        created_at BIGINT NOT NULL,
        create_reason TEXT NOT NULL,
        decided_by BIGINT,
        decided_at BIGINT,
        decision_reason TEXT NOT NULL DEFAULT '',
        settled_at BIGINT
      );
      CREATE INDEX block_offers_status ON block_offers(status, closes_at);
      CREATE TABLE block_bid_transitions (
        from_status TEXT NOT NULL,
        to_status TEXT NOT NULL,
        PRIMARY KEY (from_status, to_status)
      );
      INSERT INTO block_bid_transitions (from_status, to_status) VALUES
        ('new', 'applied'), ('applied', 'cancelled'), ('applied', 'allotted'), ('applied', 'partly_allotted'),
        ('applied', 'not_allotted');
      CREATE TABLE block_bids (
        id {{id}},
        offer_id BIGINT NOT NULL REFERENCES block_offers(id),
        user_id BIGINT NOT NULL REFERENCES users(id),
        quantity BIGINT NOT NULL,
        amount_minor BIGINT NOT NULL,
        status TEXT NOT NULL,
        allotted BIGINT NOT NULL DEFAULT 0,
        paid_minor BIGINT NOT NULL DEFAULT 0,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        unlocked_at BIGINT,
        client_key TEXT,
        UNIQUE (user_id, client_key)
      );
      CREATE INDEX block_bids_user ON block_bids(user_id, id);
      CREATE INDEX block_bids_offer ON block_bids(offer_id, id);
      CREATE TABLE block_hni (
        user_id BIGINT PRIMARY KEY REFERENCES users(id),
        marked_by BIGINT NOT NULL,
        marked_at BIGINT NOT NULL,
        reason TEXT NOT NULL
      );
    `,
  },
  {
    version: 29,
    // Runtime listing (features/listings) and coin offerings (features/coin-offerings). A listing row is
    // the instrument added to the catalogue at run time, re-applied at every start-up (its engine
    // register_asset/register_instrument are journaled). An offering and each commitment have a life
    // cycle with its transition table; money moves only by engine commands linked to the rows
    // (coin-commitment:<id> holds, coin-offering:<id> settlement). Amounts are decimal strings.
    name: 'runtime listings, coin offerings and commitments with their transition tables',
    sql: (dialect) => `
      CREATE TABLE runtime_listings (
        instrument_id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        definition TEXT NOT NULL,
        asset TEXT,
        asset_scale INTEGER,
        source TEXT NOT NULL,
        listed_at BIGINT NOT NULL
      );
      CREATE TABLE coin_offering_transitions (
        from_status TEXT NOT NULL,
        to_status TEXT NOT NULL,
        PRIMARY KEY (from_status, to_status)
      );
      INSERT INTO coin_offering_transitions (from_status, to_status) VALUES
        ('pending_approval', 'approved'), ('pending_approval', 'rejected'), ('approved', 'allotted'),
        ('allotted', 'listed');
      CREATE TABLE coin_offerings (
        id {{id}},
        symbol TEXT NOT NULL,
        name TEXT NOT NULL,
        scale INTEGER NOT NULL,
        price TEXT NOT NULL,
        cap TEXT NOT NULL,
        unit TEXT NOT NULL,
        min_commit TEXT NOT NULL,
        max_commit TEXT NOT NULL,
        opens_at BIGINT NOT NULL,
        closes_at BIGINT NOT NULL,
        summary TEXT NOT NULL,
        status TEXT NOT NULL,
        reason TEXT NOT NULL DEFAULT '',
        created_by BIGINT NOT NULL,
        approved_by BIGINT,
        committed_total TEXT NOT NULL DEFAULT '0',
        sold TEXT NOT NULL DEFAULT '0',
        instrument_id TEXT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL
      );
      CREATE UNIQUE INDEX coin_offerings_symbol ON coin_offerings(symbol);
      CREATE INDEX coin_offerings_status ON coin_offerings(status, closes_at);
      CREATE TABLE coin_offering_events (
        id {{id}},
        offering_id BIGINT NOT NULL,
        from_status TEXT,
        to_status TEXT NOT NULL,
        staff_id BIGINT,
        reason TEXT NOT NULL DEFAULT '',
        at BIGINT NOT NULL
      );
      CREATE INDEX coin_offering_events_offering ON coin_offering_events(offering_id, id);
      ${appendOnly('coin_offering_events', dialect)}
      CREATE TABLE coin_commitment_transitions (
        from_status TEXT NOT NULL,
        to_status TEXT NOT NULL,
        PRIMARY KEY (from_status, to_status)
      );
      INSERT INTO coin_commitment_transitions (from_status, to_status) VALUES
        ('subscribed', 'cancelled'), ('subscribed', 'allotted'), ('subscribed', 'not_allotted');
      CREATE TABLE coin_commitments (
        id {{id}},
        offering_id BIGINT NOT NULL,
        user_id BIGINT NOT NULL,
        amount TEXT NOT NULL,
        status TEXT NOT NULL,
        allotted TEXT NOT NULL DEFAULT '0',
        paid TEXT NOT NULL DEFAULT '0',
        refunded TEXT NOT NULL DEFAULT '0',
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL
      );
      CREATE INDEX coin_commitments_offering ON coin_commitments(offering_id, id);
      CREATE INDEX coin_commitments_user ON coin_commitments(user_id, id);
      CREATE UNIQUE INDEX coin_commitments_live ON coin_commitments(offering_id, user_id) WHERE status = 'subscribed';
    `,
  },
  {
    version: 32,
    // A coin offering's allotment is computed once and stored before any engine command (decision 0033):
    // allocated_at marks the offering, and each commitment it counted keeps its coins, payment and refund,
    // so a restart re-sends the same settlement batches from these rows instead of recomputing them from
    // engine state (which a half-sent settlement has changed). NULL: not (yet) in the allocation.
    name: 'coin offerings: the stored allocation',
    sql: () => `
      ALTER TABLE coin_offerings ADD COLUMN allocated_at BIGINT;
      ALTER TABLE coin_commitments ADD COLUMN alloc_coins TEXT;
      ALTER TABLE coin_commitments ADD COLUMN alloc_pay TEXT;
      ALTER TABLE coin_commitments ADD COLUMN alloc_refund TEXT;
    `,
  },
  {
    version: 33,
    // Options (decision 0034): a customer's option order is one row whose life is new → open → closed
    // (rejected when the engine refused the premium); the money and the live position are the engine's
    // (buy_option, close_option, settle_options), the row keeps what the customer reads. A close's or a
    // settlement's figures are written before the engine command (pending_*), so a restart finishes it
    // from the row. A purchase's Idempotency-Key is client_key (unique per customer), an early close's
    // close_key: a retry after a lost answer gets the first answer. option_settlements records each
    // (underlying, expiry) settled: its closing price, stored once before any payout.
    name: 'options: orders, their transitions and history, expiry settlements',
    sql: () => `
      CREATE TABLE option_order_transitions (
        from_status TEXT NOT NULL,
        to_status TEXT NOT NULL,
        PRIMARY KEY (from_status, to_status)
      );
      INSERT INTO option_order_transitions (from_status, to_status) VALUES
        ('new', 'open'), ('new', 'rejected'), ('open', 'closed');
      CREATE TABLE option_orders (
        id {{id}},
        user_id BIGINT NOT NULL,
        series TEXT NOT NULL,
        underlying TEXT NOT NULL,
        expiry TEXT NOT NULL,
        expires_at BIGINT NOT NULL,
        direction TEXT NOT NULL,
        strike TEXT NOT NULL,
        contracts INTEGER NOT NULL,
        multiplier INTEGER NOT NULL,
        currency TEXT NOT NULL,
        premium_unit TEXT NOT NULL,
        premium_minor BIGINT NOT NULL,
        fee_minor BIGINT NOT NULL DEFAULT 0,
        open_price TEXT NOT NULL,
        status TEXT NOT NULL,
        close_reason TEXT,
        close_unit TEXT,
        proceeds_minor BIGINT,
        expiry_price TEXT,
        pending_unit TEXT,
        pending_minor BIGINT,
        closed_at BIGINT,
        client_key TEXT,
        close_key TEXT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL
      );
      CREATE INDEX option_orders_user ON option_orders(user_id, id);
      CREATE UNIQUE INDEX option_orders_client_key ON option_orders(user_id, client_key);
      CREATE INDEX option_orders_open ON option_orders(status, expires_at);
      CREATE TABLE option_order_history (
        id {{id}},
        order_id BIGINT NOT NULL,
        from_status TEXT NOT NULL,
        to_status TEXT NOT NULL,
        at BIGINT NOT NULL,
        actor TEXT NOT NULL,
        reason TEXT NOT NULL DEFAULT ''
      );
      CREATE INDEX option_order_history_order ON option_order_history(order_id, id);
      CREATE TABLE option_settlements (
        underlying TEXT NOT NULL,
        expiry TEXT NOT NULL,
        expires_at BIGINT NOT NULL,
        expiry_price TEXT NOT NULL,
        positions INTEGER NOT NULL DEFAULT 0,
        paid_minor BIGINT NOT NULL DEFAULT 0,
        created_at BIGINT NOT NULL,
        settled_at BIGINT,
        PRIMARY KEY (underlying, expiry)
      );
    `,
  },
  {
    version: 34,
    // Robots (features/robots, decision 0035). Templates staff create and a second staff member approves
    // (robot_template_transitions); a run copies its template's terms, so a change reaches new runs only:
    // a change is a new template naming the one it replaces (replaces_id), retired when it is approved.
    // A run trades through its own engine account `robot:<id>` and moves along robot_run_transitions,
    // each move kept in robot_run_history. robot_capital lists the money put in (the start and each
    // addition): its row id names the engine commands that move it, so a restart re-sends them as no-ops.
    // A run's orders need no table: they are the engine account's orders, each command id carrying the
    // strategy's tag for it.
    name: 'robot templates and runs, their transitions and history, capital put in',
    sql: () => `
      CREATE TABLE robot_template_transitions (
        from_status TEXT NOT NULL,
        to_status TEXT NOT NULL,
        PRIMARY KEY (from_status, to_status)
      );
      INSERT INTO robot_template_transitions (from_status, to_status) VALUES
        ('pending_approval', 'approved'), ('pending_approval', 'rejected'), ('approved', 'retired');
      CREATE TABLE robot_templates (
        id {{id}},
        name TEXT NOT NULL,
        instrument_id TEXT NOT NULL,
        strategy TEXT NOT NULL,
        params TEXT NOT NULL,
        level INTEGER NOT NULL,
        period_days INTEGER NOT NULL,
        min_minor BIGINT NOT NULL,
        max_minor BIGINT NOT NULL,
        profit_ratio_pct INTEGER NOT NULL,
        status TEXT NOT NULL,
        note TEXT NOT NULL DEFAULT '',
        demo INTEGER NOT NULL DEFAULT 0,
        replaces_id BIGINT,
        created_by BIGINT NOT NULL,
        approved_by BIGINT,
        review_reason TEXT NOT NULL DEFAULT '',
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL
      );
      CREATE INDEX robot_templates_status ON robot_templates(status, id);
      CREATE TABLE robot_run_transitions (
        from_status TEXT NOT NULL,
        to_status TEXT NOT NULL,
        PRIMARY KEY (from_status, to_status)
      );
      INSERT INTO robot_run_transitions (from_status, to_status) VALUES
        ('starting', 'running'), ('starting', 'failed'), ('running', 'stopping'),
        ('stopping', 'stopped'), ('stopping', 'finished');
      CREATE TABLE robot_runs (
        id {{id}},
        user_id BIGINT NOT NULL,
        template_id BIGINT NOT NULL,
        name TEXT NOT NULL,
        instrument_id TEXT NOT NULL,
        strategy TEXT NOT NULL,
        params TEXT NOT NULL,
        level INTEGER NOT NULL,
        period_days INTEGER NOT NULL,
        min_minor BIGINT NOT NULL,
        max_minor BIGINT NOT NULL,
        profit_ratio_pct INTEGER NOT NULL,
        capital_minor BIGINT NOT NULL,
        seed BIGINT NOT NULL,
        memo TEXT NOT NULL DEFAULT '{}',
        last_tick BIGINT NOT NULL DEFAULT 0,
        status TEXT NOT NULL,
        end_reason TEXT NOT NULL DEFAULT '',
        final_minor BIGINT,
        fee_minor BIGINT,
        returned_minor BIGINT,
        started_at BIGINT NOT NULL,
        ends_at BIGINT NOT NULL,
        ended_at BIGINT,
        updated_at BIGINT NOT NULL
      );
      CREATE INDEX robot_runs_user ON robot_runs(user_id, id);
      CREATE INDEX robot_runs_status ON robot_runs(status, id);
      CREATE INDEX robot_runs_template ON robot_runs(template_id, status);
      CREATE TABLE robot_run_history (
        id {{id}},
        run_id BIGINT NOT NULL,
        from_status TEXT NOT NULL,
        to_status TEXT NOT NULL,
        at BIGINT NOT NULL,
        actor TEXT NOT NULL,
        reason TEXT NOT NULL DEFAULT ''
      );
      CREATE INDEX robot_run_history_run ON robot_run_history(run_id, id);
      CREATE TABLE robot_capital (
        id {{id}},
        run_id BIGINT NOT NULL,
        amount_minor BIGINT NOT NULL,
        at BIGINT NOT NULL
      );
      CREATE INDEX robot_capital_run ON robot_capital(run_id, id);
    `,
  },
  {
    version: 35,
    // The IPO draw mixes a public beacon round into its committed seed (decision 0036): the round is
    // fixed at the opening (beacon_source, beacon_round) and its value stored at the draw. The sandbox
    // beacon (paper mode) keeps each round it produced, so asking again gives the same value.
    name: 'IPO draw beacon rounds',
    sql: () => `
      ALTER TABLE ipos ADD COLUMN beacon_source TEXT;
      ALTER TABLE ipos ADD COLUMN beacon_round BIGINT;
      ALTER TABLE ipos ADD COLUMN beacon_randomness TEXT;
      ALTER TABLE ipos ADD COLUMN beacon_signature TEXT;
      CREATE TABLE sandbox_beacon_rounds (
        round BIGINT PRIMARY KEY,
        randomness TEXT NOT NULL,
        produced_at BIGINT NOT NULL
      );
    `,
  },
  {
    version: 36,
    // The stock sentiment vote (decision 0037): one vote per customer, stock and trading day, kept by
    // the unique rule (a second vote the same day is refused, never an update); nothing that sets prices
    // reads this table. The vote page's address per stock ('' = every stock without its own). The
    // staff-edited pages of fixed text (company introduction, loan service), in both languages.
    name: 'stock sentiment votes, vote page addresses, content pages',
    sql: () => `
      CREATE TABLE stock_votes (
        id {{id}},
        user_id BIGINT NOT NULL REFERENCES users(id),
        instrument_id TEXT NOT NULL,
        trading_day TEXT NOT NULL,
        side TEXT NOT NULL CHECK (side IN ('bullish', 'bearish')),
        created_at BIGINT NOT NULL,
        UNIQUE (user_id, instrument_id, trading_day)
      );
      CREATE INDEX stock_votes_tally ON stock_votes(instrument_id, trading_day);
      CREATE INDEX stock_votes_day ON stock_votes(trading_day);
      CREATE TABLE vote_urls (
        instrument_id TEXT PRIMARY KEY,
        url TEXT NOT NULL,
        updated_by BIGINT NOT NULL REFERENCES staff(id),
        updated_at BIGINT NOT NULL
      );
      CREATE TABLE content_pages (
        slug TEXT PRIMARY KEY CHECK (slug IN ('companyIntroduction', 'loanService')),
        title_en TEXT NOT NULL,
        title_pt TEXT NOT NULL,
        body_en TEXT NOT NULL,
        body_pt TEXT NOT NULL,
        updated_by BIGINT NOT NULL REFERENCES staff(id),
        updated_at BIGINT NOT NULL
      );
    `,
  },
  {
    version: 37,
    // VIP membership (decision 0038). Membership is not a row of its own: it is derived from the customer's
    // periods (append-only; only a paid period's status moves, pending → active once its transfer posted,
    // or → void when it never did). vip_membership_transitions says which period kind may follow which
    // derived state (the trial only from 'none': once per customer, backed by the unique index);
    // vip_period_transitions is a period's own life cycle. The strategy switch and the advice posts are
    // staff-written, each write audited.
    name: 'VIP periods, the stock-strategy switch and trading-advice posts',
    sql: () => `
      CREATE TABLE vip_membership_transitions (
        from_state TEXT NOT NULL,
        period_kind TEXT NOT NULL,
        PRIMARY KEY (from_state, period_kind)
      );
      INSERT INTO vip_membership_transitions (from_state, period_kind) VALUES
        ('none', 'trial'), ('none', 'paid'), ('trial', 'paid'), ('member', 'paid'), ('lapsed', 'paid');
      CREATE TABLE vip_period_transitions (
        from_status TEXT NOT NULL,
        to_status TEXT NOT NULL,
        PRIMARY KEY (from_status, to_status)
      );
      INSERT INTO vip_period_transitions (from_status, to_status) VALUES
        ('pending', 'active'), ('pending', 'void');
      CREATE TABLE vip_periods (
        id {{id}},
        user_id BIGINT NOT NULL REFERENCES users(id),
        kind TEXT NOT NULL CHECK (kind IN ('trial', 'paid')),
        status TEXT NOT NULL CHECK (status IN ('pending', 'active', 'void')),
        days INTEGER NOT NULL,
        starts_at BIGINT NOT NULL,
        ends_at BIGINT NOT NULL,
        amount TEXT,
        currency TEXT,
        transfer_id TEXT,
        client_key TEXT,
        created_at BIGINT NOT NULL,
        settled_at BIGINT
      );
      CREATE INDEX vip_periods_user ON vip_periods(user_id, id);
      CREATE UNIQUE INDEX vip_periods_one_trial ON vip_periods(user_id) WHERE kind = 'trial';
      CREATE UNIQUE INDEX vip_periods_client_key ON vip_periods(user_id, client_key);
      CREATE TABLE vip_strategy (
        user_id BIGINT PRIMARY KEY REFERENCES users(id),
        enabled INTEGER NOT NULL,
        staff_id BIGINT NOT NULL,
        reason TEXT NOT NULL,
        updated_at BIGINT NOT NULL
      );
      CREATE TABLE vip_advice (
        id {{id}},
        title_en TEXT NOT NULL,
        title_pt TEXT NOT NULL,
        body_en TEXT NOT NULL,
        body_pt TEXT NOT NULL,
        created_by BIGINT NOT NULL REFERENCES staff(id),
        created_at BIGINT NOT NULL,
        withdrawn_at BIGINT
      );
    `,
  },
  {
    version: 38,
    // Loans and the credit score (decision 0039). A loan's life cycle is SPEC §4's, as loan_transitions:
    // under review → in progress (paid out) → repayment under review (the repayment held) → repaid, or
    // rejected with a reason. At most one open loan per customer (the partial unique index). Money lives
    // in the engine: the loan's receivable is the platform account loan:<id>; accrued_days says how many
    // started days of interest have been charged (each day one idempotent transfer). credit_scores is each
    // customer's last computed score and factor points; credit_score_changes is the append-only log of
    // every change with the factor that caused it.
    name: 'loans, their transition table, and the credit score with its change log',
    sql: () => `
      CREATE TABLE loan_transitions (
        from_status TEXT NOT NULL,
        to_status TEXT NOT NULL,
        PRIMARY KEY (from_status, to_status)
      );
      INSERT INTO loan_transitions (from_status, to_status) VALUES
        ('under_review', 'in_progress'), ('under_review', 'rejected'),
        ('in_progress', 'repayment_review'), ('repayment_review', 'repaid');
      CREATE TABLE loans (
        id {{id}},
        user_id BIGINT NOT NULL REFERENCES users(id),
        status TEXT NOT NULL CHECK (status IN ('under_review', 'in_progress', 'repayment_review', 'repaid', 'rejected')),
        currency TEXT NOT NULL,
        amount TEXT NOT NULL,
        days INTEGER NOT NULL,
        rate_ppm INTEGER NOT NULL,
        overdue_rate_ppm INTEGER NOT NULL,
        needs_second INTEGER NOT NULL,
        score_at_apply INTEGER NOT NULL,
        applied_at BIGINT NOT NULL,
        first_approved_by BIGINT REFERENCES staff(id),
        first_approved_at BIGINT,
        approved_by BIGINT REFERENCES staff(id),
        approved_at BIGINT,
        rejected_by BIGINT REFERENCES staff(id),
        reject_reason TEXT,
        rejected_at BIGINT,
        disbursed_at BIGINT,
        due_at BIGINT,
        accrued_days INTEGER NOT NULL DEFAULT 0,
        repaid_amount TEXT,
        repay_requested_at BIGINT,
        confirmed_by BIGINT REFERENCES staff(id),
        repaid_at BIGINT,
        late INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX loans_user ON loans(user_id, id);
      CREATE INDEX loans_status ON loans(status, id);
      CREATE UNIQUE INDEX loans_one_open ON loans(user_id)
        WHERE status IN ('under_review', 'in_progress', 'repayment_review');
      CREATE TABLE credit_scores (
        user_id BIGINT PRIMARY KEY REFERENCES users(id),
        score INTEGER NOT NULL,
        factors TEXT NOT NULL,
        updated_at BIGINT NOT NULL
      );
      CREATE TABLE credit_score_changes (
        id {{id}},
        user_id BIGINT NOT NULL REFERENCES users(id),
        reason TEXT NOT NULL,
        delta INTEGER NOT NULL,
        score_after INTEGER NOT NULL,
        loan_id BIGINT REFERENCES loans(id),
        created_at BIGINT NOT NULL
      );
      CREATE INDEX credit_score_changes_user ON credit_score_changes(user_id, id);
    `,
  },
  {
    version: 39,
    // AI funds (features/funds, decision 0040). A fund is a model portfolio staff create and a second staff
    // member approves (fund_transitions); a parameter change is a row naming the fund it changes
    // (changes_id), applied to that fund when approved. The fund trades through its own engine account
    // `fund:<id>`; fund_valuations keeps each realized valuation (one per fund and trading day, the unique
    // rule makes the job idempotent): equity and units before the orders it converts (their NAV), and
    // after them. Customers' units live in fund_units (exact integers of 1/10 000
    // unit); each subscription or redemption is a fund_orders row moving along fund_order_transitions:
    // pending → priced (its units and cash fixed at a valuation's NAV) → done (the cash moved through the
    // engine, by commands named after the row, so a restart re-sends them as no-ops).
    name: 'ai funds, their valuations, units and orders',
    sql: () => `
      CREATE TABLE fund_transitions (
        from_status TEXT NOT NULL,
        to_status TEXT NOT NULL,
        PRIMARY KEY (from_status, to_status)
      );
      INSERT INTO fund_transitions (from_status, to_status) VALUES
        ('pending_approval', 'approved'), ('pending_approval', 'rejected'), ('approved', 'retired');
      CREATE TABLE funds (
        id {{id}},
        name TEXT NOT NULL,
        rule TEXT NOT NULL,
        market TEXT NOT NULL,
        size INTEGER NOT NULL,
        lookback_days INTEGER NOT NULL,
        currency TEXT NOT NULL,
        min_minor BIGINT NOT NULL,
        status TEXT NOT NULL,
        note TEXT NOT NULL DEFAULT '',
        demo INTEGER NOT NULL DEFAULT 0,
        changes_id BIGINT,
        units_minor BIGINT NOT NULL DEFAULT 0,
        rebalanced_day TEXT NOT NULL DEFAULT '',
        created_by BIGINT NOT NULL,
        approved_by BIGINT,
        review_reason TEXT NOT NULL DEFAULT '',
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL
      );
      CREATE INDEX funds_status ON funds(status, id);
      CREATE TABLE fund_valuations (
        id {{id}},
        fund_id BIGINT NOT NULL REFERENCES funds(id),
        day TEXT NOT NULL,
        time BIGINT NOT NULL,
        cash_minor BIGINT NOT NULL,
        equity_minor BIGINT NOT NULL,
        units_minor BIGINT NOT NULL,
        equity_after_minor BIGINT NOT NULL,
        units_after_minor BIGINT NOT NULL,
        UNIQUE (fund_id, day)
      );
      CREATE TABLE fund_units (
        fund_id BIGINT NOT NULL REFERENCES funds(id),
        user_id BIGINT NOT NULL REFERENCES users(id),
        units_minor BIGINT NOT NULL,
        PRIMARY KEY (fund_id, user_id)
      );
      CREATE TABLE fund_order_transitions (
        from_status TEXT NOT NULL,
        to_status TEXT NOT NULL,
        PRIMARY KEY (from_status, to_status)
      );
      INSERT INTO fund_order_transitions (from_status, to_status) VALUES
        ('pending', 'priced'), ('pending', 'failed'), ('priced', 'done');
      CREATE TABLE fund_orders (
        id {{id}},
        fund_id BIGINT NOT NULL REFERENCES funds(id),
        user_id BIGINT NOT NULL REFERENCES users(id),
        side TEXT NOT NULL,
        status TEXT NOT NULL,
        amount_minor BIGINT,
        units_minor BIGINT,
        valuation_id BIGINT REFERENCES fund_valuations(id),
        created_at BIGINT NOT NULL,
        valued_at BIGINT,
        updated_at BIGINT NOT NULL
      );
      CREATE INDEX fund_orders_user ON fund_orders(user_id, id);
      CREATE INDEX fund_orders_fund ON fund_orders(fund_id, status);
    `,
  },
  {
    version: 40,
    // Robots, repaired (decision 0035, "Recovery and idempotency"). A capital row now has a life cycle
    // (robot_capital_transitions: pending → moved | refused): it is written pending with the reservation of
    // its amount (robot_runs.pending_minor, so two additions cannot pass the single limit together), and
    // becomes moved — raising capital_minor, the high-water mark — only once its hold → post → deposit chain
    // is complete; the job finishes every pending row with its fixed command ids. Rows written before this
    // migration moved with their request (default 'moved'), except a start still starting, which the job
    // finishes (its row pending again, its amount reserved rather than counted). client_key: the Idempotency-Key of the start
    // (per customer) and of an addition (per run). pnl_*: each run's fills folded once, in trade id order
    // (average cost), so the figures never re-read every fill.
    name: 'robots: capital row status, reserved additions, idempotency keys, running P&L totals',
    sql: () => `
      CREATE TABLE robot_capital_transitions (
        from_status TEXT NOT NULL,
        to_status TEXT NOT NULL,
        PRIMARY KEY (from_status, to_status)
      );
      INSERT INTO robot_capital_transitions (from_status, to_status) VALUES
        ('pending', 'moved'), ('pending', 'refused');
      ALTER TABLE robot_capital ADD COLUMN status TEXT NOT NULL DEFAULT 'moved';
      ALTER TABLE robot_capital ADD COLUMN client_key TEXT;
      CREATE UNIQUE INDEX robot_capital_client_key ON robot_capital(run_id, client_key);
      CREATE INDEX robot_capital_status ON robot_capital(status, id);
      ALTER TABLE robot_runs ADD COLUMN pending_minor BIGINT NOT NULL DEFAULT 0;
      ALTER TABLE robot_runs ADD COLUMN client_key TEXT;
      CREATE UNIQUE INDEX robot_runs_client_key ON robot_runs(user_id, client_key);
      ALTER TABLE robot_runs ADD COLUMN pnl_cursor BIGINT NOT NULL DEFAULT 0;
      ALTER TABLE robot_runs ADD COLUMN pnl_lots BIGINT NOT NULL DEFAULT 0;
      ALTER TABLE robot_runs ADD COLUMN pnl_cost BIGINT NOT NULL DEFAULT 0;
      ALTER TABLE robot_runs ADD COLUMN pnl_realized BIGINT NOT NULL DEFAULT 0;
      ALTER TABLE robot_runs ADD COLUMN pnl_fees BIGINT NOT NULL DEFAULT 0;
      ALTER TABLE robot_runs ADD COLUMN pnl_trades BIGINT NOT NULL DEFAULT 0;
      UPDATE robot_capital SET status = 'pending' WHERE run_id IN (SELECT id FROM robot_runs WHERE status = 'starting');
      UPDATE robot_runs SET pending_minor = capital_minor, capital_minor = 0 WHERE status = 'starting';
    `,
  },
  {
    version: 41,
    // Support chat (decision 0041). A conversation moves open → assigned → closed (assigned → open when its
    // staff member releases it; open → closed when closed unanswered), as chat_conversation_transitions; a
    // customer has at most one that is not closed (the partial unique index). Messages are kept as sent;
    // client_id makes a resend return the stored message (unique per sender). delivered_at is set when the
    // other side first fetches the message; "read" is the other side's cursor in chat_reads (one per side:
    // the customer's, and the staff's shared by the desk). Images are re-encoded JPEGs, as KYC photos.
    name: 'support chat: conversations, messages, images, read cursors',
    sql: () => `
      CREATE TABLE chat_conversation_transitions (
        from_state TEXT NOT NULL,
        to_state TEXT NOT NULL,
        PRIMARY KEY (from_state, to_state)
      );
      INSERT INTO chat_conversation_transitions (from_state, to_state) VALUES
        ('open', 'assigned'), ('assigned', 'open'), ('open', 'closed'), ('assigned', 'closed');
      CREATE TABLE chat_conversations (
        id {{id}},
        user_id BIGINT NOT NULL REFERENCES users(id),
        state TEXT NOT NULL CHECK (state IN ('open', 'assigned', 'closed')),
        queue TEXT NOT NULL,
        assigned_staff_id BIGINT REFERENCES staff(id),
        created_at BIGINT NOT NULL,
        last_message_at BIGINT NOT NULL,
        closed_at BIGINT,
        closed_by BIGINT REFERENCES staff(id)
      );
      CREATE UNIQUE INDEX chat_conversations_one_live ON chat_conversations(user_id) WHERE state <> 'closed';
      CREATE INDEX chat_conversations_state ON chat_conversations(state, last_message_at);
      CREATE TABLE chat_images (
        id {{id}},
        user_id BIGINT NOT NULL REFERENCES users(id),
        conversation_id BIGINT NOT NULL REFERENCES chat_conversations(id),
        data TEXT NOT NULL,
        created_at BIGINT NOT NULL
      );
      CREATE TABLE chat_messages (
        id {{id}},
        conversation_id BIGINT NOT NULL REFERENCES chat_conversations(id),
        author TEXT NOT NULL CHECK (author IN ('customer', 'staff')),
        staff_id BIGINT REFERENCES staff(id),
        sender TEXT NOT NULL,
        client_id TEXT NOT NULL,
        body TEXT NOT NULL,
        image_id BIGINT REFERENCES chat_images(id),
        created_at BIGINT NOT NULL,
        delivered_at BIGINT
      );
      CREATE UNIQUE INDEX chat_messages_client ON chat_messages(sender, client_id);
      CREATE INDEX chat_messages_conversation ON chat_messages(conversation_id, id);
      CREATE INDEX chat_messages_sender_time ON chat_messages(sender, created_at);
      CREATE TABLE chat_reads (
        conversation_id BIGINT NOT NULL REFERENCES chat_conversations(id),
        side TEXT NOT NULL CHECK (side IN ('customer', 'staff')),
        last_read_id BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        PRIMARY KEY (conversation_id, side)
      );
    `,
  },
  {
    version: 42,
    // AI funds' idempotency keys (decision 0040, "Keys"): client_key is the clientOrderId / Idempotency-Key
    // of a subscription or redemption, unique per customer across both sides, so a retried request answers
    // the first order and holds or redeems nothing twice. Nullable: orders sent without a key have none
    // (NULLs never collide in a unique index, on either database).
    name: 'ai funds: idempotency keys of subscriptions and redemptions',
    sql: () => `
      ALTER TABLE fund_orders ADD COLUMN client_key TEXT;
      CREATE UNIQUE INDEX fund_orders_client_key ON fund_orders(user_id, client_key);
    `,
  },
];

export async function migrate(db: Db, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  await db.run('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)');
  const done = new Set(
    (await db.query<{ version: number }>('SELECT version FROM schema_migrations')).map((r) => r.version),
  );
  const applied: number[] = [];
  for (const m of migrations) {
    if (done.has(m.version)) continue;
    await db.transaction(async (tx) => {
      for (const statement of splitStatements(renderSql(m.sql(db.dialect), db.dialect))) {
        await tx.run(statement);
      }
      await tx.run('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
    });
    applied.push(m.version);
  }
  return applied;
}

/** Splits on semicolons outside $f$…$f$ bodies and BEGIN…END trigger blocks. */
export function splitStatements(sql: string): string[] {
  const out: string[] = [];
  let current = '';
  let inDollar = false;
  let depth = 0;
  for (const line of sql.split('\n')) {
    for (const part of line.split(/(\$f\$|\bBEGIN\b|\bEND\b|;)/)) {
      if (part === '$f$') inDollar = !inDollar;
      else if (!inDollar && part === 'BEGIN') depth++;
      else if (!inDollar && part === 'END') depth = Math.max(0, depth - 1);
      if (part === ';' && !inDollar && depth === 0) {
        if (current.trim()) out.push(current.trim());
        current = '';
      } else current += part;
    }
    current += '\n';
  }
  if (current.trim()) out.push(current.trim());
  return out;
}
