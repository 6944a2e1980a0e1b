// The identity-verification state (SPEC §4 idStatus): a "Verified" badge, or a label for the others.
import { useTranslation } from 'react-i18next';

const known = ['none', 'pending', 'succ', 'fail'] as const;
type IdStatus = (typeof known)[number];

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
