// Identity verification (SPEC §2 user/kyc, §3 KYC fields, §4 idStatus): shows the current state
// (under review, verified, or failed with the reviewer's reason) and, when none or failed, the form:
// document type, full name, number, front and back photos (antd-mobile ImageUploader). The photos
// go to the server as data URLs; it checks, re-encodes and keeps them, so nothing is kept here.
import type { KycView } from '@bourse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Form, ImageUploader, type ImageUploadItem, Input, Selector, Toast } from 'antd-mobile';
import '../../app/antd-mobile-react-19.ts';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { apiGet, apiPost, queryKeys } from '../../app/api.ts';
import { loginPath } from '../../app/navigation.ts';
import { useSession } from '../../app/session.ts';
import { Page } from '../../app/shell/page.tsx';
import { PrivateImage } from '../../app/shell/private-image.tsx';
import { VerificationBadge } from '../../app/shell/verification-badge.tsx';
import { formatDateTime } from '../../lib/time.ts';
import { ServerForm } from '../accounts/server-form.tsx';

const kycKey = ['user', 'kyc'] as const;
const DOC_TYPES = ['id_card', 'driving_licence', 'passport'] as const;
/** The server's cap; checked here too so a customer is told before a long upload. */
const MAX_BYTES = 5 * 1024 * 1024;

function RequireLogin({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (!session.token) return <Navigate to={`${loginPath}?redirect=${encodeURIComponent(location.pathname)}`} replace />;
  return <>{children}</>;
}

const asDataUrl = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });

export function KycPage() {
  const { t } = useTranslation();
  const state = useQuery({ queryKey: kycKey, queryFn: () => apiGet<KycView>('/user/auth') });
  const [isResubmitting, setResubmitting] = useState(false);
  const view = state.data;
  const showForm = view && (view.idStatus === 'none' || (view.idStatus === 'fail' && isResubmitting));
  return (
    <RequireLogin>
      <Page title={t('titles.user.kyc')}>
        <div className="padded kyc" data-testid="kyc-page">
          {view && (
            <div className="kyc__state" data-testid="kyc-state" data-status={view.idStatus}>
              <VerificationBadge idStatus={view.idStatus} />
              <p className="kyc__hint">{t(`kyc.hint.${view.idStatus}`)}</p>
              {view.idStatus === 'fail' && (
                <p className="kyc__reason" data-testid="kyc-reason">
                  {t('kyc.reason')}: {view.reason}
                </p>
              )}
              {view.idStatus === 'fail' && !isResubmitting && (
                <button
                  type="button"
                  className="text-button"
                  data-testid="kyc-resubmit"
                  onClick={() => setResubmitting(true)}
                >
                  {t('kyc.resubmit')}
                </button>
              )}
            </div>
          )}
          {view?.submission && !showForm && <SubmissionCard submission={view.submission} />}
          {showForm && <KycForm onDone={() => setResubmitting(false)} />}
        </div>
      </Page>
    </RequireLogin>
  );
}

/** What the customer sent last, photos included, so they can check it while it is reviewed. */
function SubmissionCard({ submission }: { submission: NonNullable<KycView['submission']> }) {
  const { t } = useTranslation();
  const rows: [string, string][] = [
    [t('kyc.docType'), t(`kyc.docTypes.${submission.docType}`)],
    [t('kyc.fullName'), submission.fullName],
    [t('kyc.docNumber'), submission.docNumber],
    [t('kyc.sentAt'), formatDateTime(submission.createdAt)],
  ];
  return (
    <section className="kyc__submission" data-testid="kyc-submission" aria-label={t('kyc.yourSubmission')}>
      <h2 className="kyc__submission-title">{t('kyc.yourSubmission')}</h2>
      <dl className="kyc__fields">
        {rows.map(([label, value]) => (
          <div key={label} className="kyc__field">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <div className="kyc__photos">
        {(['front', 'back'] as const).map((side) => (
          <figure key={side} className="kyc__photo">
            <PrivateImage
              path={`/user/auth/image/${submission.id}/${side}`}
              alt={t(`kyc.${side}`)}
              testId={`kyc-own-photo-${side}`}
            />
            <figcaption>{t(`kyc.${side}`)}</figcaption>
          </figure>
        ))}
      </div>
    </section>
  );
}

type Values = { docType: string[]; fullName: string; docNumber: string };

function KycForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [front, setFront] = useState<ImageUploadItem[]>([]);
  const [back, setBack] = useState<ImageUploadItem[]>([]);
  const [banner, setBanner] = useState<string | null>(null);
  const submit = useMutation({
    mutationFn: (values: Values) =>
      apiPost<KycView>(
        '/user/auth',
        {
          docType: values.docType[0] ?? '',
          fullName: values.fullName,
          docNumber: values.docNumber,
          front: front[0]?.url ?? '',
          back: back[0]?.url ?? '',
        },
        { isSilent: true },
      ),
    onSuccess: (view) => {
      Toast.show({ content: t('kyc.submitted') });
      queryClient.setQueryData(kycKey, view);
      void queryClient.invalidateQueries({ queryKey: queryKeys.loginInfo });
      onDone();
    },
    onError: (error) => setBanner(error.message),
  });
  const upload = async (file: File): Promise<ImageUploadItem> => {
    if (file.size > MAX_BYTES) {
      Toast.show({ content: t('kyc.tooLarge') });
      throw new Error('too large');
    }
    return { url: await asDataUrl(file) };
  };
  return (
    <ServerForm
      form={form}
      banner={banner}
      isPending={submit.isPending}
      submitText={t('kyc.submit')}
      initialValues={{ docType: ['id_card'] }}
      testId="kyc-form"
      onSubmit={(values: Values) => {
        setBanner(null);
        if (front.length === 0 || back.length === 0) return setBanner(t('kyc.photosRequired'));
        submit.mutate(values);
      }}
    >
      <Form.Item name="docType" label={t('kyc.docType')} rules={[{ required: true }]}>
        <Selector columns={1} options={DOC_TYPES.map((value) => ({ value, label: t(`kyc.docTypes.${value}`) }))} />
      </Form.Item>
      <Form.Item
        name="fullName"
        label={t('kyc.fullName')}
        rules={[{ required: true, min: 2, message: t('kyc.fullNameRequired') }]}
      >
        <Input data-testid="kyc-name" maxLength={100} autoComplete="name" />
      </Form.Item>
      <Form.Item
        name="docNumber"
        label={t('kyc.docNumber')}
        rules={[{ required: true, min: 3, message: t('kyc.docNumberRequired') }]}
      >
        <Input data-testid="kyc-number" maxLength={40} />
      </Form.Item>
      <Form.Item label={t('kyc.front')}>
        <div data-testid="kyc-front">
          <ImageUploader
            value={front}
            onChange={setFront}
            upload={upload}
            maxCount={1}
            accept="image/jpeg,image/png,image/webp"
          />
        </div>
      </Form.Item>
      <Form.Item label={t('kyc.back')}>
        <div data-testid="kyc-back">
          <ImageUploader
            value={back}
            onChange={setBack}
            upload={upload}
            maxCount={1}
            accept="image/jpeg,image/png,image/webp"
          />
        </div>
      </Form.Item>
    </ServerForm>
  );
}
