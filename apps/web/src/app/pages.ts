// Every screen of SPEC §2 at its SPEC path (/pages/<group>/<name>), so deep links survive. Every one is
// built: each has a loader in builtPages (pages.test.ts fails on a page without one).
// The title of each page is the i18n key `titles.<group>.<name>`.

import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { prefetchHomeData } from '../features/markets/home-data.ts';

type Loader = () => Promise<{ default: ComponentType }>;

export const specPages: Record<string, readonly string[]> = {
  account: ['login', 'coinLogin', 'reg'],
  stock: ['index', 'order', 'list', 'search', 'income', 'vip', 'vote', 'voteUrl', 'stockKline'],
  stockIPO: ['ipoList', 'list', 'ipoDetail', 'ipoOrder'],
  stockBulk: ['bulkList', 'bulkDetail', 'bulkOrder'],
  coin: ['index', 'coinKline', 'assetsRecord'],
  coinICO: ['icoList', 'applyList', 'icoDetail', 'icoOrder'],
  exchange: ['index', 'exchange', 'cryptoConvert', 'cryptoTransfer', 'stock'],
  recharge: [
    'recharge',
    'bankRecharge',
    'coinRecharge',
    'cryptoRecharge',
    'rechargeChannel',
    'offlineRecharge',
    'bankRecord',
    'coinRechargeList',
    'cryptoRecord',
    'rechargeRecord',
  ],
  withdraw: [
    'withdraw',
    'bankWithdraw',
    'cryptoWithdraw',
    'cryptoRecord',
    'cryptoRecordDetail',
    'recordIndex',
    'withdrawRecord',
  ],
  wallet: ['addBank', 'addAdress', 'addressList', 'bankList', 'recordDetail'],
  fundsDetail: ['index', 'cryptoFundsDetail', 'stockFundsDetail'],
  robot: ['list', 'detail', 'record', 'orderDetail'],
  news: ['list', 'detail'],
  notice: ['list', 'detail'],
  user: [
    'userInfo',
    'kyc',
    'assets',
    'creditScore',
    'ipoSwitch',
    'loginPassword',
    'tradePassword',
    'security',
    'apiKeys',
    'about',
    'service',
    'serviceJs',
  ],
  common: [
    'start',
    'lang',
    'download',
    'androidAPP',
    'iosAPP',
    'service',
    'serviceJs',
    'companyIntroduction',
    'disclaimer',
    'privacyPolicy',
    'loanService',
  ],
  tabbar: ['home', 'markets', 'trade', 'mine', 'position'],
};

/** Screens beyond SPEC §2, at the same /pages/<group>/<name> form. */
export const extraPages: Record<string, readonly string[]> = {
  // The public (no login) IPO draw verification (issue 26).
  stockIPO: ['drawVerify'],
  // Options (issue 27): SPEC names their calls, not their pages.
  stockOption: ['chain', 'order', 'positions', 'history', 'rule'],
  // Loans (issue 28, decision 0039): the application with every term, and the customer's loans.
  loan: ['apply', 'list'],
};

const named =
  <M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string): Loader =>
  () =>
    load().then((module) => ({ default: module[name] as ComponentType }));

const commonPages = () => import('../features/common/common-pages.tsx');
const accountPages = () => import('../features/accounts/auth-pages.tsx');
const minePages = () => import('../features/accounts/mine-page.tsx');
const securityPages = () => import('../features/accounts/security-page.tsx');
const homePage = () => import('../features/markets/home-page.tsx');
const marketsPage = () => import('../features/markets/markets-page.tsx');
const searchPage = () => import('../features/markets/search-page.tsx');
const klinePages = () => import('../features/markets/kline-page.tsx');
const newsPages = () => import('../features/markets/news-pages.tsx');
const noticePages = () => import('../features/content/notice-pages.tsx');
const tradePages = () => import('../features/stocks/trade-pages.tsx');
const orderPage = () => import('../features/stocks/order-page.tsx');
const bankPages = () => import('../features/bank-accounts/bank-pages.tsx');
const kycPage = () => import('../features/kyc/kyc-page.tsx');
const profilePage = () => import('../features/accounts/profile-page.tsx');
const fundsPages = () => import('../features/wallet/funds-pages.tsx');
const depositPages = () => import('../features/deposits/deposit-pages.tsx');
const cryptoDepositPages = () => import('../features/crypto-deposits/crypto-deposit-pages.tsx');
const withdrawPages = () => import('../features/withdrawals/withdraw-pages.tsx');
const exchangePages = () => import('../features/exchange/exchange-pages.tsx');
const apiKeysPage = () => import('../features/api-keys/api-keys-page.tsx');
const cryptoExchangePages = () => import('../features/exchange/crypto-pages.tsx');
const spotPages = () => import('../features/spot/spot-page.tsx');
const blockPages = () => import('../features/block-trades/block-pages.tsx');
const icoPages = () => import('../features/coin-offerings/ico-pages.tsx');
const ipoPages = () => import('../features/ipo/ipo-pages.tsx');
const ipoOrderPage = () => import('../features/ipo/ipo-order-page.tsx');
const drawVerifyPage = () => import('../features/ipo/draw-verify-page.tsx');
const robotPages = () => import('../features/robots/robot-pages.tsx');
const vipPage = () => import('../features/vip/vip-page.tsx');
const loanPages = () => import('../features/loans/loan-pages.tsx');
const votePages = () => import('../features/votes/vote-pages.tsx');
const chatPages = () => import('../features/support-chat/chat-pages.tsx');
const installPages = () => import('../features/common/install-pages.tsx');
const infoPages = () => import('../features/common/info-pages.tsx');
const optionPages = () => import('../features/options/options-pages.tsx');

/**
 * Screens whose data is requested at start-up, before React renders them (preloadScreen in
 * router.tsx). Each settles, never rejects, when the data its first render needs most are in.
 */
export const screenPrefetch: Record<string, (queryClient: QueryClient) => Promise<void>> = {
  'tabbar/home': prefetchHomeData,
};

/** The screens built so far, by "group/name". */
export const builtPages: Record<string, Loader> = {
  'common/start': named(commonPages, 'StartPage'),
  'common/lang': named(commonPages, 'LanguagePage'),
  'common/disclaimer': named(commonPages, 'DisclaimerPage'),
  'common/privacyPolicy': named(commonPages, 'PrivacyPolicyPage'),
  'account/login': named(accountPages, 'LoginPage'),
  'account/reg': named(accountPages, 'RegisterPage'),
  'account/coinLogin': named(accountPages, 'CoinLoginPage'),
  'tabbar/home': named(homePage, 'HomePage'),
  'tabbar/markets': named(marketsPage, 'MarketsPage'),
  'tabbar/trade': named(tradePages, 'TradePage'),
  'tabbar/position': named(tradePages, 'PositionPage'),
  'stock/index': named(tradePages, 'StockIndexPage'),
  'stock/list': named(tradePages, 'OrderListPage'),
  'stock/income': named(tradePages, 'IncomePage'),
  'fundsDetail/stockFundsDetail': named(tradePages, 'StockFundsDetailPage'),
  'stock/order': named(orderPage, 'OrderPage'),
  'stock/search': named(searchPage, 'SearchPage'),
  'stock/stockKline': named(klinePages, 'StockKlinePage'),
  'coin/coinKline': named(klinePages, 'CoinKlinePage'),
  'coin/index': named(spotPages, 'CoinIndexPage'),
  'news/list': named(newsPages, 'NewsListPage'),
  'news/detail': named(newsPages, 'NewsDetailPage'),
  'notice/list': named(noticePages, 'NoticeListPage'),
  'notice/detail': named(noticePages, 'NoticeDetailPage'),
  'robot/list': named(robotPages, 'RobotListPage'),
  'robot/detail': named(robotPages, 'RobotDetailPage'),
  'robot/record': named(robotPages, 'RobotRecordPage'),
  'robot/orderDetail': named(robotPages, 'RobotOrderDetailPage'),
  'tabbar/mine': named(minePages, 'MinePage'),
  'user/about': named(minePages, 'AboutPage'),
  'user/kyc': named(kycPage, 'KycPage'),
  'user/security': named(securityPages, 'SecurityPage'),
  'user/apiKeys': named(apiKeysPage, 'ApiKeysPage'),
  'user/loginPassword': named(securityPages, 'LoginPasswordPage'),
  'user/tradePassword': named(securityPages, 'TradePasswordPage'),
  'wallet/bankList': named(bankPages, 'BankListPage'),
  'wallet/addBank': named(bankPages, 'AddBankPage'),
  'user/userInfo': named(profilePage, 'UserInfoPage'),
  'user/assets': named(fundsPages, 'AssetsPage'),
  'fundsDetail/index': named(fundsPages, 'FundsDetailPage'),
  'wallet/recordDetail': named(fundsPages, 'RecordDetailPage'),
  'recharge/recharge': named(depositPages, 'RechargePage'),
  'recharge/rechargeChannel': named(depositPages, 'RechargeChannelPage'),
  'recharge/bankRecharge': named(depositPages, 'BankRechargePage'),
  'recharge/offlineRecharge': named(depositPages, 'OfflineRechargePage'),
  'recharge/bankRecord': named(depositPages, 'BankRecordPage'),
  'recharge/rechargeRecord': named(depositPages, 'RechargeRecordPage'),
  'recharge/coinRecharge': named(cryptoDepositPages, 'CoinRechargePage'),
  'recharge/cryptoRecharge': named(cryptoDepositPages, 'CryptoRechargePage'),
  'recharge/coinRechargeList': named(cryptoDepositPages, 'CoinRechargeListPage'),
  'recharge/cryptoRecord': named(cryptoDepositPages, 'CryptoRecordPage'),
  'withdraw/withdraw': named(withdrawPages, 'WithdrawPage'),
  'withdraw/bankWithdraw': named(withdrawPages, 'BankWithdrawPage'),
  'withdraw/cryptoWithdraw': named(withdrawPages, 'CryptoWithdrawPage'),
  'withdraw/recordIndex': named(withdrawPages, 'RecordIndexPage'),
  'withdraw/withdrawRecord': named(withdrawPages, 'WithdrawRecordPage'),
  'withdraw/cryptoRecord': named(withdrawPages, 'CryptoRecordPage'),
  'withdraw/cryptoRecordDetail': named(withdrawPages, 'CryptoRecordDetailPage'),
  'wallet/addAdress': named(withdrawPages, 'AddAdressPage'),
  'wallet/addressList': named(withdrawPages, 'AddressListPage'),
  'fundsDetail/cryptoFundsDetail': named(fundsPages, 'CryptoFundsDetailPage'),
  'exchange/index': named(exchangePages, 'ExchangeIndexPage'),
  'exchange/exchange': named(exchangePages, 'ExchangePage'),
  'exchange/stock': named(exchangePages, 'ExchangeStockPage'),
  'exchange/cryptoConvert': named(cryptoExchangePages, 'CryptoConvertPage'),
  'exchange/cryptoTransfer': named(cryptoExchangePages, 'CryptoTransferPage'),
  'coin/assetsRecord': named(fundsPages, 'AssetsRecordPage'),
  'stockBulk/bulkList': named(blockPages, 'BulkListPage'),
  'stockBulk/bulkDetail': named(blockPages, 'BulkDetailPage'),
  'stockBulk/bulkOrder': named(blockPages, 'BulkOrderPage'),
  'coinICO/icoList': named(icoPages, 'IcoListPage'),
  'coinICO/applyList': named(icoPages, 'ApplyListPage'),
  'coinICO/icoDetail': named(icoPages, 'IcoDetailPage'),
  'coinICO/icoOrder': named(icoPages, 'IcoOrderPage'),
  // IPO subscription (issue 26)
  'stockIPO/ipoList': named(ipoPages, 'IpoListPage'),
  'stockIPO/ipoDetail': named(ipoPages, 'IpoDetailPage'),
  'stockIPO/list': named(ipoPages, 'ApplicationsPage'),
  'stockIPO/ipoOrder': named(ipoOrderPage, 'IpoOrderPage'),
  'user/ipoSwitch': named(ipoPages, 'IpoSwitchPage'),
  'stockIPO/drawVerify': named(drawVerifyPage, 'DrawVerifyPage'),
  // VIP membership (issue 28 item 3)
  'stock/vip': named(vipPage, 'VipPage'),
  // The sentiment vote and the remaining common pages (issue 28)
  'stock/vote': named(votePages, 'VotePage'),
  'stock/voteUrl': named(votePages, 'VoteUrlPage'),
  'common/download': named(installPages, 'DownloadPage'),
  'common/androidAPP': named(installPages, 'AndroidAppPage'),
  'common/iosAPP': named(installPages, 'IosAppPage'),
  'common/companyIntroduction': named(infoPages, 'CompanyIntroductionPage'),
  'common/loanService': named(infoPages, 'LoanServicePage'),
  // Options (issue 27)
  'stockOption/chain': named(optionPages, 'OptionChainPage'),
  'stockOption/order': named(optionPages, 'OptionOrderPage'),
  'stockOption/positions': named(optionPages, 'OptionPositionsPage'),
  'stockOption/history': named(optionPages, 'OptionHistoryPage'),
  'stockOption/rule': named(optionPages, 'OptionRulePage'),
  // Loans and the credit score (issue 28 items 1–2)
  'user/creditScore': named(loanPages, 'CreditScorePage'),
  'loan/apply': named(loanPages, 'LoanApplyPage'),
  'loan/list': named(loanPages, 'LoanListPage'),
  // Support chat (issue 28 item 5, decision 0041)
  'user/service': named(chatPages, 'UserServicePage'),
  'user/serviceJs': named(chatPages, 'UserServiceJsPage'),
  'common/service': named(chatPages, 'CommonServicePage'),
  'common/serviceJs': named(chatPages, 'CommonServiceJsPage'),
};
