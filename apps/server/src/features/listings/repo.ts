// SQL of runtime listings: one row per instrument added to the catalogue at run time, with the asset its
// coin needed. Returns plain rows; building instruments stays in service.ts.

import type { Sql } from '@bourse/db';

export type ListingRow = {
  instrument_id: string;
  kind: 'stock' | 'coin';
  definition: string;
  asset: string | null;
  asset_scale: number | null;
  source: string;
  listed_at: number;
};

export const listListings = (db: Sql) =>
  db.query<ListingRow>(
    'SELECT instrument_id, kind, definition, asset, asset_scale, source, listed_at FROM runtime_listings ORDER BY listed_at, instrument_id',
  );

export const findListing = async (db: Sql, instrumentId: string) =>
  (
    await db.query<ListingRow>(
      'SELECT instrument_id, kind, definition, asset, asset_scale, source, listed_at FROM runtime_listings WHERE instrument_id = $1',
      [instrumentId],
    )
  )[0];

/** Inserts the listing; one already stored under the id is left as it is (a repeat after a crash). */
export const insertListing = (db: Sql, row: ListingRow) =>
  db.run(
    `INSERT INTO runtime_listings (instrument_id, kind, definition, asset, asset_scale, source, listed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (instrument_id) DO NOTHING`,
    [row.instrument_id, row.kind, row.definition, row.asset, row.asset_scale, row.source, row.listed_at],
  );
