// The public draw verification page (pages/stockIPO/drawVerify?id=…, no login): fetches an IPO's draw
// record (revealed seed, valid retail applications, retail shares, lot, published allottees), re-runs
// the draw in the browser with the server's own pure function (draw-check.ts) and says either
// "reproduced: N allottees match" or what differs. Anyone can look their application reference up.
// Without an id it lists the drawn IPOs to choose from.

import type { IpoDrawRecordView } from '@bourse/contract';
import { beaconRoundTime } from '@bourse/contract/beacon';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Page } from '../../app/shell/page.tsx';
import { EmptyState, ErrorState, SkeletonRows } from '../markets/market-ui.tsx';
import { checkDraw, type DrawCheck } from './draw-check.ts';
import { useDrawRecord, useIpoTab } from './ipo-api.ts';
import { Facts, IpoStatusChip, idParam, ipoPaths, useIpoFormat } from './ipo-ui.tsx';

const SAMPLE = 20;

type Outcome = { check: DrawCheck } | { error: string };

function useCheck(record: IpoDrawRecordView | undefined): Outcome | null {
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  useEffect(() => {
    if (!record) return;
    setOutcome(null);
    // After the "re-running" state has painted: a large draw takes a moment on a phone.
    const timer = setTimeout(() => {
      try {
        setOutcome({ check: checkDraw(record) });
      } catch (cause) {
        setOutcome({ error: cause instanceof Error ? cause.message : String(cause) });
      }
    }, 30);
    return () => clearTimeout(timer);
  }, [record]);
  return outcome;
}

function RefLookup({ check, record }: { check: DrawCheck; record: IpoDrawRecordView }) {
  const { t } = useTranslation();
  const [ref, setRef] = useState('');
  const [applied] = useState(() => new Set(record.applications.map((a) => a.ref)));
  const wanted = ref.trim();
  const lots = check.byRef.get(wanted);
  return (
    <section className="ipo-section">
      <label className="stepper-field__label" htmlFor="draw-ref">
        {t('ipo.verify.findRef')}
      </label>
      <input
        id="draw-ref"
        className="ipo-input"
        value={ref}
        autoComplete="off"
        onChange={(event) => setRef(event.target.value)}
        data-testid="draw-ref"
      />
      <p className="ipo-section__hint">{t('ipo.verify.findHint')}</p>
      {wanted !== '' && (
        <p className="ipo-ref-result" role="status" data-testid="draw-ref-result">
          {lots !== undefined
            ? t('ipo.verify.refAllotted', { ref: wanted, lots })
            : applied.has(wanted)
              ? t('ipo.verify.refNotAllotted', { ref: wanted })
              : t('ipo.verify.refUnknown', { ref: wanted })}
        </p>
      )}
    </section>
  );
}

function RefList({ title, items }: { title: string; items: readonly { ref: string; lots: number }[] }) {
  const { t } = useTranslation();
  if (items.length === 0) return null;
  return (
    <section className="ipo-section">
      <h2 className="ipo-section__title">{title}</h2>
      <ul className="ipo-refs tabular">
        {items.slice(0, SAMPLE).map((item) => (
          <li key={item.ref}>
            <code>{item.ref}</code>
            <span>{t('ipo.verify.lots', { count: item.lots })}</span>
          </li>
        ))}
      </ul>
      {items.length > SAMPLE && (
        <p className="ipo-section__hint">{t('ipo.verify.andMore', { count: items.length - SAMPLE })}</p>
      )}
    </section>
  );
}

function DrawReport({ record }: { record: IpoDrawRecordView }) {
  const { t } = useTranslation();
  const f = useIpoFormat('INR');
  const outcome = useCheck(record);
  return (
    <>
      <section className="ipo-hero" data-testid="draw-record">
        <div className="ipo-card__head">
          <span className="ipo-card__names">
            <span className="ipo-card__symbol">{record.symbol}</span>
            <span className="ipo-card__name">{record.name}</span>
          </span>
        </div>
        <Facts
          rows={[
            [t('ipo.verify.algorithm'), record.algorithm],
            [t('ipo.verify.retailShares'), f.shares(record.retailShares)],
            [t('ipo.lot'), t('ipo.lotShares', { count: record.lotSize })],
            [t('ipo.verify.applications'), f.shares(record.applications.length)],
            [t('ipo.verify.allottees'), f.shares(record.allotments.length)],
            [t('ipo.verify.drawnAt'), f.dateTime(record.drawnAt)],
          ]}
        />
        <dl className="ipo-seeds">
          <dt>{t('ipo.seedHash')}</dt>
          <dd>
            <code>{record.seedHash}</code>
          </dd>
          <dt>{t('ipo.seed')}</dt>
          <dd>
            <code>{record.seed}</code>
          </dd>
          {record.beacon && (
            <>
              <dt>{t('ipo.beaconRound')}</dt>
              <dd>
                {t('ipo.beaconRoundValue', {
                  source: t(`ipo.beaconSources.${record.beacon.source}`),
                  round: record.beacon.round,
                  time: f.dateTime(beaconRoundTime(record.beacon.source, record.beacon.round)),
                })}
              </dd>
              <dt>{t('ipo.verify.beaconRandomness')}</dt>
              <dd>
                <code>{record.beacon.randomness}</code>
              </dd>
            </>
          )}
        </dl>
      </section>
      {outcome === null ? (
        <p className="ipo-verdict" role="status" data-testid="draw-running">
          {t('ipo.verify.running')}
        </p>
      ) : 'error' in outcome ? (
        <p className="ipo-verdict ipo-verdict--bad" role="alert" data-testid="draw-verdict">
          {t('ipo.verify.error', { message: outcome.error })}
        </p>
      ) : (
        <>
          <div
            className={outcome.check.isReproduced ? 'ipo-verdict ipo-verdict--ok' : 'ipo-verdict ipo-verdict--bad'}
            role="status"
            data-testid="draw-verdict"
            data-reproduced={outcome.check.isReproduced}
          >
            <p className="ipo-verdict__head">
              {outcome.check.isReproduced
                ? t('ipo.verify.reproduced', { count: outcome.check.matched })
                : t('ipo.verify.mismatch', {
                    count: outcome.check.missingInRecord.length + outcome.check.extraInRecord.length,
                  })}
            </p>
            <p>{t(outcome.check.isHashOk ? 'ipo.verify.hashOk' : 'ipo.verify.hashBad')}</p>
            <p data-testid="draw-beacon" data-beacon={outcome.check.beacon}>
              {t(`ipo.verify.beaconChecks.${outcome.check.beacon}`)}
            </p>
            <p>
              {outcome.check.isModeOk
                ? t(`ipo.drawModes.${outcome.check.mode}`)
                : t('ipo.verify.modeBad', {
                    got: t(`ipo.drawModes.${outcome.check.mode}`),
                    expected: t(`ipo.drawModes.${record.mode}`),
                  })}
            </p>
          </div>
          <RefList title={t('ipo.verify.missingInRecord')} items={outcome.check.missingInRecord} />
          <RefList title={t('ipo.verify.extraInRecord')} items={outcome.check.extraInRecord} />
          <RefLookup check={outcome.check} record={record} />
          <RefList title={t('ipo.verify.sample')} items={record.allotments} />
        </>
      )}
    </>
  );
}

function DrawnChooser() {
  const { t } = useTranslation();
  const ipos = useIpoTab('closed');
  if (ipos.isPending) return <SkeletonRows count={3} height={56} />;
  if (ipos.isError) return <ErrorState onRetry={() => void ipos.refetch()} />;
  const drawn = ipos.data.filter((ipo) => ipo.seed);
  if (drawn.length === 0) return <EmptyState title={t('ipo.verify.noDrawn')} hint={t('ipo.verify.missingId')} />;
  return (
    <section className="ipo-section">
      <h2 className="ipo-section__title">{t('ipo.verify.chooseIpo')}</h2>
      <ul className="list" data-testid="drawn-ipos">
        {drawn.map((ipo) => (
          <li key={ipo.id}>
            <Link className="list-row" to={ipoPaths.verify(ipo.id)}>
              <span className="list-row__label">
                {ipo.symbol} · {ipo.issuer}
              </span>
              <IpoStatusChip status={ipo.status} />
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

function DrawRecord({ id }: { id: number }) {
  const record = useDrawRecord(id);
  if (record.isPending) return <SkeletonRows count={4} height={72} />;
  if (record.isError) return <ErrorState message={record.error.message} onRetry={() => void record.refetch()} />;
  return <DrawReport record={record.data} />;
}

export function DrawVerifyPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = idParam(params);
  return (
    <Page title={t('ipo.verify.title')}>
      <p className="ipo-intro">{t('ipo.verify.intro')}</p>
      {id ? <DrawRecord id={id} /> : <DrawnChooser />}
    </Page>
  );
}
