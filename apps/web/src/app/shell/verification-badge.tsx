// The identity-verification state (SPEC §4 idStatus): a "Verified" badge, or a label for the others.
import type { UserView } from '@bourse/contract';
import { useTranslation } from 'react-i18next';

type IdStatus = UserView['idStatus'];
// A stored profile from an older release may say anything: shown as unverified.
const known = ['none', 'pending', 'succ', 'fail'] as const satisfies readonly IdStatus[];

export function VerificationBadge({ idStatus }: { idStatus: string | undefined }) {
  const { t } = useTranslation();
  const status: IdStatus = (known as readonly string[]).includes(idStatus ?? '') ? (idStatus as IdStatus) : 'none';
  return (
    <span className={`id-status id-status--${status}`} data-testid="id-status">
      {status === 'succ' && <span aria-hidden="true">✓ </span>}
      {t(`idStatus.${status}`)}
    </span>
  );
}
