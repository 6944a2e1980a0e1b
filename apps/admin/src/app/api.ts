// The server calls the console makes, typed. Each staff action here is audited by the server;
// the console never writes the audit log itself.
// Types only from the contract (erased from the bundle, so zod stays out of it).
import type {
  AdjustmentView,
  AdminContentPageView,
  AdminContentView,
  AdminMessageView,
  AuditEntryView,
  AuditQueryInput,
  BlockWindowView,
  ChatQueue,
  ContentCreateInput,
  ContentIdInput,
  ContentListInput,
  ContentPageSetInput,
  ContentUnpublishInput,
  ContentUpdateInput,
  CreateBlockOfferInput,
  CreateCoinOfferingInput,
  CreatedStaffView,
  CreateFundInput,
  CreateIpoInput,
  CreateRobotTemplateInput,
  CustomerUserView,
  DecideAdjustmentInput,
  DecideBlockOfferInput,
  DecideCoinOfferingInput,
  DepositDecisionInput,
  DepositReviewItem,
  DoneView,
  IpoAutoApplyLogView,
  IpoDrawRecordView,
  Items,
  KycDecisionInput,
  KycReviewItem,
  LoanStatus,
  MessageSendInput,
  MessageSentView,
  Paged,
  ProposeAdjustmentInput,
  ReconciliationReport,
  ReconciliationState,
  RetireFundInput,
  RetireRobotTemplateInput,
  ReviewFundInput,
  ReviewIpoInput,
  ReviewRobotTemplateInput,
  RunIpoListingInput,
  SentMessagesQueryInput,
  SpotLiquidityView,
  StaffBlockOfferDetail,
  StaffBlockOfferView,
  StaffChatList,
  StaffChatReplyBody,
  StaffChatView,
  StaffCoinCommitmentView,
  StaffCoinOfferingView,
  StaffCreateInput,
  StaffDisableInput,
  StaffFundListView,
  StaffFundView,
  StaffIpoListView,
  StaffIpoView,
  StaffListingsView,
  StaffLoanView,
  StaffLoginInput,
  StaffLoginResult,
  StaffMemberView,
  StaffMeView,
  StaffOptionsDeskView,
  StaffPasswordInput,
  StaffPerpetualsDesk,
  StaffRobotRunListView,
  StaffRobotTemplateListView,
  StaffRobotTemplateView,
  StaffVipAdviceView,
  StaffVipMemberView,
  StaffVoteOverview,
  UserStatusInput,
  UsersQueryInput,
  VipAdviceInput,
  VoteUrlSetBody,
  WithdrawalDecisionBody,
  WithdrawalDeskItem,
} from '@bourse/contract';
import { QueryClient } from '@tanstack/react-query';
import { currentLanguage, i18n } from '../i18n/index.ts';
import { createApiClient, isApiError } from './request.ts';
import { getToken, setToken } from './session.ts';

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
  login: (body: StaffLoginInput) => client.post<StaffLoginResult>('/admin/auth/login', body),
  me: () => client.get<StaffMeView>('/admin/auth/me'),
  logout: () => client.post<DoneView>('/admin/auth/logout'),
  changePassword: (body: StaffPasswordInput) => client.post<DoneView>('/admin/auth/password', body),
  audit: (query: AuditQueryInput) => client.get<Paged<AuditEntryView>>('/admin/audit', query),
  staff: () => client.get<Items<StaffMemberView>>('/admin/staff'),
  createStaff: (body: StaffCreateInput) => client.post<CreatedStaffView>('/admin/staff/create', body),
  disableStaff: (body: StaffDisableInput) => client.post<DoneView>('/admin/staff/disable', body),
  users: (query: UsersQueryInput) => client.get<Paged<CustomerUserView>>('/admin/users', query),
  setUserStatus: (body: UserStatusInput) => client.post<DoneView>('/admin/users/status', body),
  content: (query: ContentListInput) => client.get<Paged<AdminContentView>>('/admin/content', query),
  createContent: (body: ContentCreateInput) => client.post<AdminContentView>('/admin/content/create', body),
  updateContent: (body: ContentUpdateInput) => client.post<AdminContentView>('/admin/content/update', body),
  publishContent: (body: ContentIdInput) => client.post<AdminContentView>('/admin/content/publish', body),
  unpublishContent: (body: ContentUnpublishInput) => client.post<AdminContentView>('/admin/content/unpublish', body),
  sentMessages: (query: SentMessagesQueryInput) => client.get<Paged<AdminMessageView>>('/admin/messages', query),
  sendMessage: (body: MessageSendInput) => client.post<MessageSentView>('/admin/messages/send', body),
  reconciliation: () => client.get<ReconciliationState>('/admin/reconciliation'),
  runReconciliation: () => client.post<ReconciliationReport>('/admin/reconciliation/run'),
  spotLiquidity: () => client.get<Items<SpotLiquidityView>>('/admin/spot/liquidity'),
  perpetualsDesk: () => client.get<StaffPerpetualsDesk>('/admin/perpetuals/desk'),
  optionsDesk: () => client.get<StaffOptionsDeskView>('/admin/options/desk'),
  listings: () => client.get<StaffListingsView>('/admin/listings'),
  kycPending: () => client.get<Items<KycReviewItem>>('/admin/kyc'),
  kycDecide: (id: number, body: KycDecisionInput) => client.post<DoneView>(`/admin/kyc/${id}/decide`, body),
  depositsPending: () => client.get<Items<DepositReviewItem>>('/admin/deposits'),
  depositDecide: (id: number, body: DepositDecisionInput) =>
    client.post<DoneView>(`/admin/deposits/${id}/decide`, body),
  withdrawalDesk: (view: WithdrawalDeskView) => client.get<Items<WithdrawalDeskItem>>('/admin/withdrawals', { view }),
  withdrawalDecide: (id: number, body: WithdrawalDecisionBody) =>
    client.post<DoneView>(`/admin/withdrawals/${id}/decide`, body),
  adjustments: (query: { status: 'pending' | 'approved' | 'rejected' | 'all' }) =>
    client.get<Items<AdjustmentView>>('/admin/adjustments', query),
  proposeAdjustment: (body: ProposeAdjustmentInput) => client.post<AdjustmentView>('/admin/adjustments', body),
  decideAdjustment: (id: number, body: DecideAdjustmentInput) =>
    client.post<AdjustmentView>(`/admin/adjustments/${id}/decide`, body),
  ipos: () => client.get<StaffIpoListView>('/admin/ipos', { limit: 100 }),
  createIpo: (body: CreateIpoInput) => client.post<StaffIpoView>('/admin/ipos', body),
  reviewIpo: (body: ReviewIpoInput) => client.post<StaffIpoView>('/admin/ipos/review', body),
  runIpoListing: (body: RunIpoListingInput) => client.post<StaffIpoView>('/admin/ipos/list', body),
  ipoDraw: (ipoId: number) => client.get<IpoDrawRecordView>('/stock/index/new/draw', { ipoId }),
  ipoAutoApply: (id: number) => client.get<IpoAutoApplyLogView>('/admin/ipos/auto-apply', { id }),
  // --- block trades (features/block-trades) ---
  blockOffers: () => client.get<Items<StaffBlockOfferView>>('/admin/block-trades'),
  blockOffer: (id: number) => client.get<StaffBlockOfferDetail>(`/admin/block-trades/${id}`),
  blockWindows: (symbol: string) => client.get<Items<BlockWindowView>>('/admin/block-trades/windows', { symbol }),
  createBlockOffer: (body: CreateBlockOfferInput) => client.post<StaffBlockOfferView>('/admin/block-trades', body),
  decideBlockOffer: (id: number, body: DecideBlockOfferInput) =>
    client.post<StaffBlockOfferView>(`/admin/block-trades/${id}/decide`, body),
  markHni: (body: { userId: number; reason: string }) => client.post<object>('/admin/block-trades/hni', body),
  // --- loans (features/loans) ---
  loans: (status: LoanStatus | 'all') => client.get<Items<StaffLoanView>>('/admin/loans', { status }),
  decideLoan: (id: number, body: { decision: 'approve' | 'reject'; reason: string }) =>
    client.post<StaffLoanView>(`/admin/loans/${id}/decide`, body),
  confirmLoanRepayment: (id: number, body: { reason: string }) =>
    client.post<StaffLoanView>(`/admin/loans/${id}/confirm-repayment`, body),
  // --- VIP (features/vip) ---
  vipMembers: () => client.get<Items<StaffVipMemberView>>('/admin/vip/members'),
  setVipStrategy: (body: { userId: number; enabled: boolean; reason: string }) =>
    client.post<null>('/admin/vip/strategy', body),
  vipAdvice: () => client.get<Items<StaffVipAdviceView>>('/admin/vip/advice'),
  publishVipAdvice: (body: VipAdviceInput) => client.post<{ id: number }>('/admin/vip/advice', body),
  withdrawVipAdvice: (body: { id: number; reason: string }) => client.post<null>('/admin/vip/advice/withdraw', body),
  coinOfferings: () => client.get<Items<StaffCoinOfferingView>>('/admin/coin-offerings'),
  createCoinOffering: (body: CreateCoinOfferingInput) =>
    client.post<StaffCoinOfferingView>('/admin/coin-offerings', body),
  decideCoinOffering: (id: number, body: DecideCoinOfferingInput) =>
    client.post<StaffCoinOfferingView>(`/admin/coin-offerings/${id}/decide`, body),
  // --- sentiment vote (features/votes) and the pages of fixed text (features/content) ---
  // --- support chat (features/support-chat) ---
  chats: (queue: ChatQueue) => client.get<StaffChatList>('/admin/chat', { queue }),
  chat: (id: number) => client.get<StaffChatView>(`/admin/chat/${id}`),
  assignChat: (id: number) => client.post<StaffChatView>(`/admin/chat/${id}/assign`),
  releaseChat: (id: number) => client.post<StaffChatView>(`/admin/chat/${id}/release`),
  replyChat: (id: number, body: StaffChatReplyBody) => client.post<StaffChatView>(`/admin/chat/${id}/reply`, body),
  readChat: (id: number, upTo: number) => client.post<StaffChatView>(`/admin/chat/${id}/read`, { upTo }),
  closeChat: (id: number, reason: string) => client.post<StaffChatView>(`/admin/chat/${id}/close`, { reason }),
  votes: () => client.get<StaffVoteOverview>('/admin/votes'),
  setVoteUrl: (body: VoteUrlSetBody) => client.post<StaffVoteOverview>('/admin/votes/url', body),
  contentPages: () => client.get<Items<AdminContentPageView>>('/admin/content/pages'),
  saveContentPage: (body: ContentPageSetInput) => client.post<AdminContentPageView>('/admin/content/pages/save', body),
  coinOfferingCommitments: (id: number) =>
    client.get<Items<StaffCoinCommitmentView>>(`/admin/coin-offerings/${id}/commitments`),
  robotTemplates: () => client.get<StaffRobotTemplateListView>('/admin/robots/templates'),
  createRobotTemplate: (body: CreateRobotTemplateInput) =>
    client.post<StaffRobotTemplateView>('/admin/robots/templates', body),
  reviewRobotTemplate: (body: ReviewRobotTemplateInput) =>
    client.post<StaffRobotTemplateView>('/admin/robots/templates/review', body),
  retireRobotTemplate: (body: RetireRobotTemplateInput) =>
    client.post<StaffRobotTemplateView>('/admin/robots/templates/retire', body),
  robotRuns: (status: 'running' | 'ended' | 'all') =>
    client.get<StaffRobotRunListView>('/admin/robots/runs', { status, limit: 100 }),
  // --- AI funds (features/funds) ---
  aiFunds: () => client.get<StaffFundListView>('/admin/funds'),
  createAiFund: (body: CreateFundInput) => client.post<StaffFundView>('/admin/funds', body),
  reviewAiFund: (body: ReviewFundInput) => client.post<StaffFundView>('/admin/funds/review', body),
  retireAiFund: (body: RetireFundInput) => client.post<StaffFundView>('/admin/funds/retire', body),
};

export const queryKeys = {
  me: ['me'] as const,
  audit: (query: object) => ['audit', query] as const,
  staff: ['staff'] as const,
  users: (query: object) => ['users', query] as const,
  content: (query: object) => ['content', query] as const,
  sentMessages: (query: object) => ['messages', query] as const,
  reconciliation: ['reconciliation'] as const,
  spotLiquidity: ['spot-liquidity'] as const,
  perpetualsDesk: ['perpetuals-desk'] as const,
  optionsDesk: ['options-desk'] as const,
  listings: ['listings'] as const,
  kyc: ['kyc'] as const,
  deposits: ['deposits'] as const,
  withdrawals: (view: string) => ['withdrawals', view] as const,
  adjustments: (status: string) => ['adjustments', status] as const,
  loans: (status: string) => ['loans', status] as const,
  ipos: ['ipos'] as const,
  ipoDraw: (id: number) => ['ipo-draw', id] as const,
  blockOffers: ['block-offers'] as const,
  blockOffer: (id: number) => ['block-offers', id] as const,
  blockWindows: (symbol: string) => ['block-windows', symbol] as const,
  coinOfferings: ['coin-offerings'] as const,
  robotTemplates: ['robot-templates'] as const,
  aiFunds: ['ai-funds'] as const,
  robotRuns: (status: string) => ['robot-runs', status] as const,
  votes: ['votes'] as const,
  chats: ['chat'] as const,
  contentPages: ['content', 'pages'] as const,
};

export type WithdrawalDeskView = 'review' | 'paying' | 'failed' | 'done';
