// The server calls the console makes, typed. Each staff action here is audited by the server;
// the console never writes the audit log itself.
// Types only from the contract (erased from the bundle, so zod stays out of it).
import type { ReconciliationReport, ReconciliationState } from '@bourse/contract';
import { QueryClient } from '@tanstack/react-query';
import { currentLanguage, i18n } from '../i18n/index.ts';
import { createApiClient, isApiError } from './request.ts';
import type { StaffRole } from './roles.ts';
import { getToken, setToken } from './session.ts';

export type Id = number | string;

export interface StaffIdentity {
  id: Id;
  username: string;
  role: StaffRole;
}

export type Mode = 'paper' | 'live';

export interface Me {
  staff: StaffIdentity;
  mode: Mode;
}

export interface AuditEntry {
  id: Id;
  at: string;
  staffId: Id | null;
  staffUsername: string | null;
  action: string;
  targetType: string | null;
  targetId: Id | null;
  reason: string | null;
  detail: Record<string, unknown> | null;
}

export interface Page<T> {
  items: T[];
  total: number;
}

export interface StaffMember {
  id: Id;
  username: string;
  role: StaffRole;
  status: number | string;
  createdAt: string;
}

export interface CreatedStaff {
  id: Id;
  username: string;
  role: StaffRole;
  initialPassword: string;
  totpSecret: string;
  otpauthUrl: string;
}

export interface CustomerUser {
  id: Id;
  account: string;
  status: number;
  idStatus: number | string | null;
  createdAt: string;
}

export type ContentKind = 'ad' | 'notice' | 'news';
export type ContentStatus = 'draft' | 'published' | 'unpublished';

/** The editable fields of a news article, notice or banner, in both languages. */
export interface ContentFields {
  titleEn: string;
  titlePt: string;
  summaryEn: string;
  summaryPt: string;
  bodyEn: string;
  bodyPt: string;
  sourceEn: string;
  sourcePt: string;
  imageEn: string;
  imagePt: string;
  link: string;
}

export interface ContentItem extends ContentFields {
  id: number;
  kind: ContentKind;
  status: ContentStatus;
  isSeeded: boolean;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
  unpublishedAt: string | null;
}

export interface SentMessage {
  id: number;
  userId: number;
  account: string;
  titleEn: string;
  titlePt: string;
  bodyEn: string;
  bodyPt: string;
  sentBy: string | null;
  createdAt: string;
  readAt: string | null;
}

export interface MessageDraft {
  userId: Id;
  titleEn: string;
  titlePt: string;
  bodyEn: string;
  bodyPt: string;
}

export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      refetchOnWindowFocus: false,
      staleTime: 10_000,
      // A rejection or an ended session will not change on retry; a network blip might.
      retry: (failureCount, error) => failureCount < 1 && isApiError(error) && error.kind === 'network',
    },
    mutations: { retry: false },
  },
});

/** Forgets the token and every cached answer; the router then shows the sign-in page. */
export function endSession(end: 'server' | 'user'): void {
  setToken(null, end);
  queryClient.clear();
}

const client = createApiClient({
  baseUrl: '/ipor-api',
  fetch: (input, init) => fetch(input, init),
  getToken,
  getLanguage: currentLanguage,
  onSessionInvalid: () => endSession('server'),
  translate: (key) => i18n.t(key),
});

export const adminApi = {
  login: (body: { username: string; password: string; totpCode: string }) =>
    client.post<{ token: string; staff: StaffIdentity }>('/admin/auth/login', body),
  me: () => client.get<Me>('/admin/auth/me'),
  logout: () => client.post<unknown>('/admin/auth/logout'),
  changePassword: (body: { oldPassword: string; password: string }) =>
    client.post<unknown>('/admin/auth/password', body),
  audit: (query: { page: number; limit: number; action?: string; staffId?: string }) =>
    client.get<Page<AuditEntry>>('/admin/audit', query),
  staff: () => client.get<{ items: StaffMember[] }>('/admin/staff'),
  createStaff: (body: { username: string; role: StaffRole; reason: string }) =>
    client.post<CreatedStaff>('/admin/staff/create', body),
  disableStaff: (body: { id: Id; reason: string }) => client.post<unknown>('/admin/staff/disable', body),
  users: (query: { keyword?: string; page: number; limit: number }) =>
    client.get<Page<CustomerUser>>('/admin/users', query),
  setUserStatus: (body: { userId: Id; status: 0 | 1; reason: string }) =>
    client.post<unknown>('/admin/users/status', body),
  content: (query: { kind?: ContentKind; status?: ContentStatus | ''; page: number; limit: number }) =>
    client.get<Page<ContentItem>>('/admin/content', query),
  createContent: (body: ContentFields & { kind: ContentKind; publish: boolean }) =>
    client.post<ContentItem>('/admin/content/create', body),
  updateContent: (body: ContentFields & { id: Id }) => client.post<ContentItem>('/admin/content/update', body),
  publishContent: (body: { id: Id }) => client.post<ContentItem>('/admin/content/publish', body),
  unpublishContent: (body: { id: Id; reason: string }) => client.post<ContentItem>('/admin/content/unpublish', body),
  sentMessages: (query: { userId?: string; page: number; limit: number }) =>
    client.get<Page<SentMessage>>('/admin/messages', query),
  sendMessage: (body: MessageDraft) => client.post<{ id: number }>('/admin/messages/send', body),
  reconciliation: () => client.get<ReconciliationState>('/admin/reconciliation'),
  runReconciliation: () => client.post<ReconciliationReport>('/admin/reconciliation/run'),
};

export const queryKeys = {
  me: ['me'] as const,
  audit: (query: object) => ['audit', query] as const,
  staff: ['staff'] as const,
  users: (query: object) => ['users', query] as const,
  content: (query: object) => ['content', query] as const,
  sentMessages: (query: object) => ['messages', query] as const,
  reconciliation: ['reconciliation'] as const,
};
