// The closed catalogue of every expected rejection: a snake_case code, its HTTP status and its message
// in both languages. Server, web and admin all read it from here, so a code means one thing everywhere.
// Adding a code means adding both translations; nothing outside this file invents user-facing errors.

import type { Lang } from './lang.ts';

export type ErrorEntry = { readonly status: number; readonly en: string; readonly pt: string };

export const ERRORS = {
  // --- sessions and access ---
  session_invalid: {
    status: 401,
    en: 'Your session has ended. Please sign in again.',
    pt: 'Sua sessão terminou. Entre novamente.',
  },
  not_logged_in: { status: 401, en: 'You are not currently logged in', pt: 'Você não está conectado no momento' },
  forbidden: {
    status: 403,
    en: 'You do not have permission to do this',
    pt: 'Você não tem permissão para fazer isso',
  },
  not_found: { status: 404, en: 'Not found', pt: 'Não encontrado' },
  // --- bank accounts ---
  bank_account_not_found: { status: 404, en: 'Bank account not found', pt: 'Conta bancária não encontrada' },
  bank_account_limit: {
    status: 400,
    en: 'You have reached the maximum number of bank accounts',
    pt: 'Você atingiu o número máximo de contas bancárias',
  },
  ifsc_invalid: { status: 400, en: 'This IFSC code is not valid', pt: 'Este código IFSC não é válido' },
  tax_id_invalid: { status: 400, en: 'This CPF or CNPJ is not valid', pt: 'Este CPF ou CNPJ não é válido' },
  pix_key_invalid: {
    status: 400,
    en: 'This PIX key is not valid: use a CPF, CNPJ, e-mail, +55 phone or random key',
    pt: 'Esta chave Pix não é válida: use CPF, CNPJ, e-mail, celular +55 ou chave aleatória',
  },
  too_many_requests: {
    status: 429,
    en: 'Too many requests. Please wait a moment and try again.',
    pt: 'Muitas solicitações. Aguarde um momento e tente novamente.',
  },
  internal_error: {
    status: 500,
    en: 'Something went wrong on our side. Nothing was changed; please try again.',
    pt: 'Algo deu errado do nosso lado. Nada foi alterado; tente novamente.',
  },
  // --- request validation ---
  validation_failed: {
    status: 400,
    en: 'Please check the highlighted fields',
    pt: 'Verifique os campos destacados',
  },
  field_required: { status: 400, en: 'This field is required', pt: 'Este campo é obrigatório' },
  field_invalid: { status: 400, en: 'This value is not valid', pt: 'Este valor não é válido' },
  payload_too_large: { status: 413, en: 'The request is too large', pt: 'A solicitação é grande demais' },
  unsupported_media_type: {
    status: 415,
    en: 'The request must be sent as a form or as JSON',
    pt: 'A solicitação deve ser enviada como formulário ou como JSON',
  },
  malformed_body: {
    status: 400,
    en: 'The request could not be read: its content is malformed',
    pt: 'Não foi possível ler a solicitação: o conteúdo está malformado',
  },
  text_too_long: { status: 400, en: 'This text is too long', pt: 'Este texto é longo demais' },
  idempotency_key_reused: {
    status: 409,
    en: 'This request was already sent with different content',
    pt: 'Esta solicitação já foi enviada com conteúdo diferente',
  },
  idempotency_in_flight: {
    status: 409,
    en: 'This request is already being processed',
    pt: 'Esta solicitação já está sendo processada',
  },
  // --- accounts (SPEC §5, §8) ---
  phone_invalid: {
    status: 400,
    en: 'Phone number format is incorrect',
    pt: 'O formato do número de telefone está incorreto',
  },
  phone_taken: {
    status: 409,
    en: 'This phone number is already registered',
    pt: 'Este número de telefone já está cadastrado',
  },
  password_length: {
    status: 400,
    en: 'The password must be 6 to 20 characters',
    pt: 'A senha deve ter de 6 a 20 caracteres',
  },
  password_mismatch: {
    status: 400,
    en: 'The 2 password inputs do not match',
    pt: 'As 2 senhas digitadas não coincidem',
  },
  password_incorrect: {
    status: 400,
    en: 'The password is incorrect, please re-enter',
    pt: 'A senha está incorreta, digite novamente',
  },
  pin_format: {
    status: 400,
    en: 'The password must be exactly 6 digits',
    pt: 'A senha deve ter exatamente 6 dígitos',
  },
  trade_password_incorrect: {
    status: 400,
    en: 'The transaction password is incorrect, please re-enter',
    pt: 'A senha de transação está incorreta, digite novamente',
  },
  withdraw_password_incorrect: {
    status: 400,
    en: 'The withdrawal password is incorrect, please re-enter',
    pt: 'A senha de saque está incorreta, digite novamente',
  },
  trade_password_not_set: {
    status: 400,
    en: 'Please set a transaction password first',
    pt: 'Defina uma senha de transação primeiro',
  },
  withdraw_password_not_set: {
    status: 400,
    en: 'Please set a withdrawal password first',
    pt: 'Defina uma senha de saque primeiro',
  },
  captcha_incorrect: { status: 400, en: 'Captcha code error', pt: 'Código captcha incorreto' },
  captcha_expired: {
    status: 400,
    en: 'The captcha has expired. Tap the image for a new one.',
    pt: 'O captcha expirou. Toque na imagem para obter outro.',
  },
  sms_code_incorrect: {
    status: 400,
    en: 'The verification code is incorrect or has expired',
    pt: 'O código de verificação está incorreto ou expirou',
  },
  sms_too_soon: {
    status: 429,
    en: 'Please wait before requesting another code',
    pt: 'Aguarde antes de solicitar outro código',
  },
  invite_code_required: {
    status: 400,
    en: 'An invitation code is required',
    pt: 'É necessário um código de convite',
  },
  invite_code_invalid: {
    status: 400,
    en: 'The invitation code is not valid',
    pt: 'O código de convite não é válido',
  },
  agreement_required: {
    status: 400,
    en: 'Please agree to the disclaimer and privacy policy first',
    pt: 'Aceite primeiro o aviso legal e a política de privacidade',
  },
  login_failed: {
    status: 401,
    en: 'The phone number or password is incorrect',
    pt: 'O número de telefone ou a senha está incorreto',
  },
  too_many_attempts: {
    status: 429,
    en: 'Too many failed attempts. Please try again later.',
    pt: 'Muitas tentativas sem sucesso. Tente novamente mais tarde.',
  },
  account_blocked: {
    status: 403,
    en: 'This account is blocked. Please contact support.',
    pt: 'Esta conta está bloqueada. Entre em contato com o suporte.',
  },
  totp_required: {
    status: 401,
    en: 'Enter the 6-digit code from your authenticator app',
    pt: 'Digite o código de 6 dígitos do seu aplicativo autenticador',
  },
  totp_incorrect: {
    status: 401,
    en: 'The authenticator code is incorrect',
    pt: 'O código do autenticador está incorreto',
  },
  totp_not_started: {
    status: 400,
    en: 'Start two-factor setup first',
    pt: 'Inicie primeiro a configuração de dois fatores',
  },
  email_invalid: { status: 400, en: 'Email format is incorrect', pt: 'O formato do e-mail está incorreto' },
  cpf_invalid: { status: 400, en: 'CPF format is incorrect', pt: 'O formato do CPF está incorreto' },
  cnpj_invalid: { status: 400, en: 'CNPJ format is incorrect', pt: 'O formato do CNPJ está incorreto' },
  kyc_required: { status: 403, en: 'Please complete KYC first', pt: 'Conclua o KYC primeiro' },
  kyc_transition_refused: {
    status: 409,
    en: 'This KYC action is not allowed in the current state',
    pt: 'Esta ação de KYC não é permitida no estado atual',
  },
  kyc_image_type: {
    status: 400,
    en: 'The photo must be a JPEG, PNG or WebP image',
    pt: 'A foto deve ser uma imagem JPEG, PNG ou WebP',
  },
  kyc_image_too_large: { status: 400, en: 'The photo is too large', pt: 'A foto é grande demais' },
  kyc_not_found: { status: 404, en: 'KYC submission not found', pt: 'Envio de KYC não encontrado' },
  // --- crypto deposits ---
  crypto_asset_unknown: {
    status: 400,
    en: 'This coin cannot be deposited',
    pt: 'Esta moeda não pode ser depositada',
  },
  crypto_network_unsupported: {
    status: 400,
    en: 'This coin cannot be sent on this network',
    pt: 'Esta moeda não pode ser enviada nesta rede',
  },
  crypto_deposit_not_found: { status: 404, en: 'Deposit not found', pt: 'Depósito não encontrado' },
  crypto_tx_not_seen: {
    status: 404,
    en: 'This transaction to your deposit address is not on the network yet. It will appear here once it is.',
    pt: 'Esta transação para o seu endereço de depósito ainda não está na rede. Ela aparecerá aqui assim que estiver.',
  },
  crypto_test_deposit_paper_only: {
    status: 400,
    en: 'Test deposits can only be sent in paper mode',
    pt: 'Depósitos de teste só podem ser enviados no modo simulado',
  },
  // --- staff ---
  staff_login_failed: {
    status: 401,
    en: 'The username, password or code is incorrect',
    pt: 'O usuário, a senha ou o código está incorreto',
  },
  staff_username_taken: {
    status: 409,
    en: 'This username is already taken',
    pt: 'Este nome de usuário já está em uso',
  },
  reason_required: {
    status: 400,
    en: 'Please write the reason for this action',
    pt: 'Escreva o motivo desta ação',
  },
  reason_too_long: {
    status: 400,
    en: 'The reason is too long (500 characters at most)',
    pt: 'O motivo é longo demais (no máximo 500 caracteres)',
  },
  staff_cannot_disable_self: {
    status: 400,
    en: 'You cannot disable your own account',
    pt: 'Você não pode desativar a sua própria conta',
  },
  last_admin: {
    status: 409,
    en: 'At least one administrator must stay active',
    pt: 'Pelo menos um administrador precisa continuar ativo',
  },
  // --- news, notices, ads and messages ---
  content_title_required: {
    status: 400,
    en: 'Write a title in at least one language',
    pt: 'Escreva um título em pelo menos um idioma',
  },
  content_image_invalid: {
    status: 400,
    en: 'The image must be a data: image (PNG, JPEG, GIF, WebP or SVG) or a path on this site',
    pt: 'A imagem deve ser uma imagem data: (PNG, JPEG, GIF, WebP ou SVG) ou um caminho deste site',
  },
  content_link_invalid: {
    status: 400,
    en: 'The link must be an app page (/pages/…) or an https:// address',
    pt: 'O link deve ser uma página do app (/pages/…) ou um endereço https://',
  },
  content_already_published: {
    status: 409,
    en: 'This item is already published',
    pt: 'Este item já está publicado',
  },
  content_not_published: {
    status: 409,
    en: 'Only a published item can be unpublished',
    pt: 'Apenas um item publicado pode ser retirado do ar',
  },
  user_not_found: { status: 404, en: 'No customer has this ID', pt: 'Nenhum cliente tem este ID' },
  // --- money and trading (SPEC §8) ---
  insufficient_balance: { status: 400, en: 'Insufficient balance', pt: 'Saldo insuficiente' },
  insufficient_quantity: { status: 400, en: 'Not enough quantity', pt: 'Quantidade insuficiente' },
  shares_locked_until_settlement: {
    status: 400,
    en: 'These shares are locked until settlement: you can sell them from {date}',
    pt: 'Estas ações estão bloqueadas até a liquidação: você pode vendê-las a partir de {date}',
  },
  amount_zero: {
    status: 400,
    en: 'The order amount or price cannot be 0',
    pt: 'O valor ou o preço da ordem não pode ser 0',
  },
  quantity_required: {
    status: 400,
    en: 'Please enter the quantity',
    pt: 'Informe a quantidade',
  },
  notional_below_minimum: {
    status: 400,
    en: 'The order value is below the minimum of {min}',
    pt: 'O valor da ordem está abaixo do mínimo de {min}',
  },
  daily_limit_buy: {
    status: 400,
    en: 'Stocks with daily limit cannot be bought',
    pt: 'Ações no limite diário não podem ser compradas',
  },
  instrument_unlisted: {
    status: 400,
    en: 'The stock is currently unlisted and cannot be traded',
    pt: 'A ação não está listada no momento e não pode ser negociada',
  },
  market_closed: {
    status: 400,
    en: 'The market is closed: orders are accepted during trading hours only',
    pt: 'O mercado está fechado: ordens são aceitas apenas no horário de negociação',
  },
  amount_below_minimum: {
    status: 400,
    en: 'The order amount is below the minimum',
    pt: 'O valor da ordem está abaixo do mínimo',
  },
  amount_above_maximum: {
    status: 400,
    en: 'The order amount is above the maximum',
    pt: 'O valor da ordem está acima do máximo',
  },
  leverage_funds: {
    status: 400,
    en: 'Your account funds do not meet the leverage requirements',
    pt: 'Os fundos da sua conta não atendem aos requisitos de alavancagem',
  },
  trigger_wrong_side: {
    status: 400,
    en: 'The set price cannot be higher or lower than the order price',
    pt: 'O preço definido não pode ser maior ou menor que o preço da ordem',
  },
  subscription_funds: {
    status: 400,
    en: 'Your account is insufficient for the subscription amount',
    pt: 'Sua conta é insuficiente para o valor da subscrição',
  },
  deposits_closed: {
    status: 400,
    en: 'Deposits cannot be made at the current time',
    pt: 'Não é possível fazer depósitos no momento',
  },
  withdrawals_closed: {
    status: 400,
    en: 'Withdrawals cannot be made at the current time',
    pt: 'Não é possível fazer saques no momento',
  },
  no_closable_orders: {
    status: 400,
    en: 'There are no closable orders',
    pt: 'Não há ordens que possam ser fechadas',
  },
  // --- engine rejections (packages/engine ENGINE_REJECTIONS; a test keeps the two lists in step) ---
  invalid_command: { status: 400, en: 'This request is not valid', pt: 'Esta solicitação não é válida' },
  command_id_reused: {
    status: 409,
    en: 'This request was already sent with different content',
    pt: 'Esta solicitação já foi enviada com conteúdo diferente',
  },
  transfer_id_reused: {
    status: 409,
    en: 'This transfer was already sent with different content',
    pt: 'Esta transferência já foi enviada com conteúdo diferente',
  },
  invalid_user: { status: 400, en: 'Unknown account', pt: 'Conta desconhecida' },
  invalid_amount: { status: 400, en: 'The amount is not valid', pt: 'O valor não é válido' },
  unknown_asset: { status: 400, en: 'Unknown asset', pt: 'Ativo desconhecido' },
  invalid_asset: { status: 400, en: 'The asset definition is not valid', pt: 'A definição do ativo não é válida' },
  asset_exists: { status: 409, en: 'This asset already exists', pt: 'Este ativo já existe' },
  hold_not_found: {
    status: 404,
    en: 'The reserved funds were not found',
    pt: 'Os fundos reservados não foram encontrados',
  },
  hold_amount_exceeded: {
    status: 400,
    en: 'The amount is more than the reserved funds',
    pt: 'O valor é maior que os fundos reservados',
  },
  option_series_unknown: {
    status: 404,
    en: 'This option is not on the chain',
    pt: 'Esta opção não está na grade',
  },
  option_min_amount: {
    status: 400,
    en: 'The premium is below the minimum option purchase of {min}',
    pt: 'O prêmio está abaixo da compra mínima de opções de {min}',
  },
  option_market_closed: {
    status: 400,
    en: 'Options trade only while the underlying’s market is open',
    pt: 'Opções são negociadas apenas com o mercado do ativo-objeto aberto',
  },
  option_price_changed: {
    status: 409,
    en: 'The price moved since it was shown. Check the new quote and try again.',
    pt: 'O preço mudou desde que foi exibido. Confira a nova cotação e tente novamente.',
  },
  option_vip_only: {
    status: 403,
    en: 'Options are available to VIP members',
    pt: 'Opções estão disponíveis para membros VIP',
  },
  option_closed: {
    status: 400,
    en: 'This option position is already closed',
    pt: 'Esta posição de opção já está encerrada',
  },
  option_exists: {
    status: 409,
    en: 'This option order was already placed',
    pt: 'Esta ordem de opção já foi enviada',
  },
  option_not_found: { status: 404, en: 'Option position not found', pt: 'Posição de opção não encontrada' },
  option_expired: {
    status: 400,
    en: 'This option has expired: it can no longer be bought or closed',
    pt: 'Esta opção venceu: não pode mais ser comprada nem encerrada',
  },
  option_not_expired: {
    status: 400,
    en: 'This option has not expired yet',
    pt: 'Esta opção ainda não venceu',
  },
  allocation_invalid: {
    status: 400,
    en: 'The allocation does not match the subscriptions',
    pt: 'A alocação não corresponde às subscrições',
  },
  same_account: { status: 400, en: 'Choose two different accounts', pt: 'Escolha duas contas diferentes' },
  instrument_exists: { status: 409, en: 'This instrument already exists', pt: 'Este instrumento já existe' },
  invalid_instrument: { status: 400, en: 'This instrument is not valid', pt: 'Este instrumento não é válido' },
  unknown_instrument: { status: 404, en: 'Unknown instrument', pt: 'Instrumento desconhecido' },
  instrument_halted: {
    status: 400,
    en: 'Trading in this instrument is halted',
    pt: 'A negociação deste instrumento está suspensa',
  },
  invalid_price: { status: 400, en: 'The price is not valid', pt: 'O preço não é válido' },
  invalid_quantity: { status: 400, en: 'The quantity is not valid', pt: 'A quantidade não é válida' },
  price_not_on_tick: {
    status: 400,
    en: 'The price must be a multiple of the tick size',
    pt: 'O preço deve ser múltiplo do tick mínimo',
  },
  quantity_not_on_lot: {
    status: 400,
    en: 'The quantity must be a multiple of the lot size',
    pt: 'A quantidade deve ser múltipla do lote',
  },
  quantity_below_minimum: {
    status: 400,
    en: 'The quantity is below the minimum',
    pt: 'A quantidade está abaixo do mínimo',
  },
  quantity_above_maximum: {
    status: 400,
    en: 'The quantity is above the maximum',
    pt: 'A quantidade está acima do máximo',
  },
  price_outside_band: {
    status: 400,
    en: "The price is outside today's price band",
    pt: 'O preço está fora da banda de preço de hoje',
  },
  post_only_would_take: {
    status: 400,
    en: 'A post-only order cannot trade immediately',
    pt: 'Uma ordem somente-maker não pode ser executada imediatamente',
  },
  fok_not_fillable: {
    status: 400,
    en: 'The order cannot be filled completely right now',
    pt: 'A ordem não pode ser executada integralmente agora',
  },
  no_liquidity: {
    status: 400,
    en: 'There is no one to trade with at an acceptable price right now',
    pt: 'Não há contraparte a um preço aceitável no momento',
  },
  invalid_trigger_price: {
    status: 400,
    en: 'The trigger price is not valid',
    pt: 'O preço de disparo não é válido',
  },
  open_order_limit: {
    status: 400,
    en: 'You have reached the limit of open orders',
    pt: 'Você atingiu o limite de ordens abertas',
  },
  order_not_found: { status: 404, en: 'Order not found', pt: 'Ordem não encontrada' },
  order_not_amendable: {
    status: 400,
    en: 'This order can no longer be changed',
    pt: 'Esta ordem não pode mais ser alterada',
  },
  amend_no_change: {
    status: 400,
    en: 'Nothing to change in this order',
    pt: 'Nada a alterar nesta ordem',
  },
  // --- fiat deposits (features/deposits) ---
  deposit_not_found: { status: 404, en: 'Deposit not found', pt: 'Depósito não encontrado' },
  deposit_rail_unavailable: {
    status: 400,
    en: 'This deposit method is not offered for this currency',
    pt: 'Este meio de depósito não é oferecido para esta moeda',
  },
  deposit_below_minimum: {
    status: 400,
    en: 'The amount is below the minimum deposit ({min})',
    pt: 'O valor está abaixo do depósito mínimo ({min})',
  },
  deposit_above_maximum: {
    status: 400,
    en: 'The amount is above the maximum deposit ({max})',
    pt: 'O valor está acima do depósito máximo ({max})',
  },
  deposit_reference_required: {
    status: 400,
    en: 'Please enter the reference of your transfer',
    pt: 'Informe a referência da sua transferência',
  },
  deposit_proof_required: {
    status: 400,
    en: 'Please attach a photo of the transfer receipt',
    pt: 'Anexe uma foto do comprovante da transferência',
  },
  deposit_transition_refused: {
    status: 409,
    en: 'This deposit can no longer be changed this way',
    pt: 'Este depósito não pode mais ser alterado desta forma',
  },
  deposit_amount_mismatch: {
    status: 400,
    en: 'The amount paid does not match the deposit',
    pt: 'O valor pago não corresponde ao depósito',
  },
  webhook_signature_invalid: {
    status: 401,
    en: 'The signature of this notification is not valid',
    pt: 'A assinatura desta notificação não é válida',
  },
  // --- withdrawals (features/withdrawals) ---
  withdrawals_locked: {
    status: 400,
    en: 'For your safety, withdrawals are locked for 24 hours after a new bank account or address, or a change of password or two-factor: you can withdraw from {date}',
    pt: 'Para sua segurança, os saques ficam bloqueados por 24 horas após uma nova conta bancária ou endereço, ou uma troca de senha ou de dois fatores: você pode sacar a partir de {date}',
  },
  withdraw_below_minimum: {
    status: 400,
    en: 'The minimum withdrawal is {min}',
    pt: 'O saque mínimo é {min}',
  },
  withdraw_above_maximum: {
    status: 400,
    en: 'The maximum withdrawal is {max}',
    pt: 'O saque máximo é {max}',
  },
  withdraw_amount_invalid: {
    status: 400,
    en: 'Enter an amount such as 100 or 100.50',
    pt: 'Informe um valor como 100 ou 100,50',
  },
  withdraw_currency_mismatch: {
    status: 400,
    en: 'This bank account cannot receive this currency',
    pt: 'Esta conta bancária não pode receber esta moeda',
  },
  withdraw_network_unsupported: {
    status: 400,
    en: 'This asset cannot be withdrawn on this network',
    pt: 'Este ativo não pode ser sacado nesta rede',
  },
  withdraw_address_invalid: {
    status: 400,
    en: 'This is not a valid address on this network',
    pt: 'Este não é um endereço válido nesta rede',
  },
  withdraw_address_not_found: {
    status: 404,
    en: 'Withdrawal address not found',
    pt: 'Endereço de saque não encontrado',
  },
  withdraw_address_limit: {
    status: 400,
    en: 'You have reached the maximum number of withdrawal addresses',
    pt: 'Você atingiu o número máximo de endereços de saque',
  },
  withdrawal_not_found: { status: 404, en: 'Withdrawal not found', pt: 'Saque não encontrado' },
  withdrawal_not_cancellable: {
    status: 400,
    en: 'This withdrawal can no longer be cancelled',
    pt: 'Este saque não pode mais ser cancelado',
  },
  withdrawal_already_decided: {
    status: 409,
    en: 'This withdrawal is no longer waiting for review',
    pt: 'Este saque não está mais aguardando análise',
  },
  same_asset: {
    status: 400,
    en: 'Choose two different currencies',
    pt: 'Escolha duas moedas diferentes',
  },
  // --- perpetual positions (engine family `positions`) ---
  invalid_leverage: {
    status: 400,
    en: 'This leverage is not available for this contract and position size',
    pt: 'Esta alavancagem não está disponível para este contrato e tamanho de posição',
  },
  leverage_open_orders: {
    status: 409,
    en: 'Cancel your open orders on this contract before changing its leverage',
    pt: 'Cancele suas ordens abertas neste contrato antes de mudar a alavancagem',
  },
  insufficient_margin: {
    status: 400,
    en: 'The margin left would be below the initial margin of the position',
    pt: 'A margem restante ficaria abaixo da margem inicial da posição',
  },
  not_liquidatable: {
    status: 409,
    en: 'This position is above its maintenance margin and cannot be liquidated',
    pt: 'Esta posição está acima da margem de manutenção e não pode ser liquidada',
  },
  reduce_only_rejected: {
    status: 400,
    en: 'There is no position for this order to reduce',
    pt: 'Não há posição para esta ordem reduzir',
  },
  position_not_found: {
    status: 404,
    en: 'Position not found',
    pt: 'Posição não encontrada',
  },
  // --- currency exchange ---
  exchange_pair_unsupported: {
    status: 400,
    en: 'This currency pair cannot be exchanged',
    pt: 'Este par de moedas não pode ser trocado',
  },
  exchange_amount_too_small: {
    status: 400,
    en: 'The amount is below the minimum of {min}',
    pt: 'O valor está abaixo do mínimo de {min}',
  },
  exchange_quote_not_found: { status: 404, en: 'Quote not found', pt: 'Cotação não encontrada' },
  exchange_quote_expired: {
    status: 400,
    en: 'This quote has expired. Nothing was exchanged; please get a new quote.',
    pt: 'Esta cotação expirou. Nada foi trocado; peça uma nova cotação.',
  },
  exchange_rate_unavailable: {
    status: 503,
    en: 'The exchange rate is not available right now',
    pt: 'A taxa de câmbio não está disponível no momento',
  },
  // --- statements ---
  statement_month_invalid: {
    status: 400,
    en: 'Choose a past or current month',
    pt: 'Escolha um mês passado ou o mês atual',
  },
  // --- coin offerings (launchpad) ---
  coin_offering_not_found: { status: 404, en: 'Coin offering not found', pt: 'Oferta de moeda não encontrada' },
  coin_offering_not_open: {
    status: 400,
    en: 'This offering is not open for subscriptions',
    pt: 'Esta oferta não está aberta para subscrições',
  },
  coin_commitment_below_minimum: {
    status: 400,
    en: 'The minimum commitment is {min} USDT',
    pt: 'O compromisso mínimo é de {min} USDT',
  },
  coin_commitment_above_maximum: {
    status: 400,
    en: 'The maximum commitment is {max} USDT',
    pt: 'O compromisso máximo é de {max} USDT',
  },
  coin_commitment_exists: {
    status: 409,
    en: 'You already have a commitment to this offering: cancel it first to change it',
    pt: 'Você já tem um compromisso nesta oferta: cancele-o antes para alterá-lo',
  },
  coin_commitment_not_found: { status: 404, en: 'Commitment not found', pt: 'Compromisso não encontrado' },
  coin_commitment_not_cancellable: {
    status: 400,
    en: 'This commitment can no longer be cancelled',
    pt: 'Este compromisso não pode mais ser cancelado',
  },
  coin_offering_same_staff: {
    status: 403,
    en: 'A different staff member must approve or reject this offering',
    pt: 'Outro membro da equipe deve aprovar ou rejeitar esta oferta',
  },
  coin_offering_already_decided: {
    status: 409,
    en: 'This offering was already approved or rejected',
    pt: 'Esta oferta já foi aprovada ou rejeitada',
  },
  coin_offering_symbol_taken: {
    status: 409,
    en: 'This coin symbol is already in use',
    pt: 'Este símbolo de moeda já está em uso',
  },
  coin_offering_window_invalid: {
    status: 400,
    en: 'The subscription window must start in the future and end after it starts',
    pt: 'A janela de subscrição deve começar no futuro e terminar depois de começar',
  },
  coin_offering_terms_invalid: {
    status: 400,
    en: 'Check the terms: the minimum must not exceed the maximum, and one unit must cost an exact USDT amount (6 decimals)',
    pt: 'Verifique os termos: o mínimo não pode passar do máximo, e uma unidade deve custar um valor exato em USDT (6 casas decimais)',
  },
  // --- manual adjustments ---
  adjustment_not_found: { status: 404, en: 'Adjustment not found', pt: 'Ajuste não encontrado' },
  adjustment_same_staff: {
    status: 403,
    en: 'A different staff member must approve or reject this adjustment',
    pt: 'Outro membro da equipe deve aprovar ou rejeitar este ajuste',
  },
  adjustment_already_decided: {
    status: 409,
    en: 'This adjustment has already been decided',
    pt: 'Este ajuste já foi decidido',
  },
  adjustment_customer_not_found: { status: 404, en: 'Customer not found', pt: 'Cliente não encontrado' },
  // --- block trades (features/block-trades) ---
  block_not_eligible_kyc: {
    status: 403,
    en: 'Block trades are for verified HNI customers: complete your identity verification (KYC) first',
    pt: 'Operações em bloco são para clientes HNI verificados: conclua primeiro a verificação de identidade (KYC)',
  },
  block_not_eligible: {
    status: 403,
    en: 'Block trades are for HNI customers: at least {min} in your stock wallet, or an HNI account set up by our staff',
    pt: 'Operações em bloco são para clientes HNI: pelo menos {min} na sua carteira de ações, ou uma conta HNI configurada pela nossa equipe',
  },
  block_outside_window: {
    status: 400,
    en: 'Bids are taken only while the block window is open ({opens} to {closes})',
    pt: 'Lances são aceitos apenas com a janela de bloco aberta ({opens} a {closes})',
  },
  block_quantity_not_in_lots: {
    status: 400,
    en: 'The quantity must be a whole number of lots of {lot} shares',
    pt: 'A quantidade deve ser um número inteiro de lotes de {lot} ações',
  },
  block_quantity_above_offer: {
    status: 400,
    en: 'The quantity is more than the {quantity} shares offered',
    pt: 'A quantidade é maior que as {quantity} ações ofertadas',
  },
  block_offer_closed: { status: 400, en: 'This block offer is closed', pt: 'Esta oferta de bloco está encerrada' },
  block_offer_not_found: { status: 404, en: 'Block offer not found', pt: 'Oferta de bloco não encontrada' },
  block_bid_not_found: { status: 404, en: 'Block trade order not found', pt: 'Ordem de block trade não encontrada' },
  block_bid_not_cancellable: {
    status: 400,
    en: 'This bid can no longer be cancelled',
    pt: 'Este lance não pode mais ser cancelado',
  },
  block_price_outside_band: {
    status: 400,
    en: 'The price must be between {low} and {high} (the block band around the reference price {reference})',
    pt: 'O preço deve estar entre {low} e {high} (a faixa de bloco em torno do preço de referência {reference})',
  },
  block_window_invalid: {
    status: 400,
    en: 'Choose one of the coming block windows of this stock’s exchange',
    pt: 'Escolha uma das próximas janelas de bloco da bolsa desta ação',
  },
  block_stock_not_offered: {
    status: 400,
    en: 'Block trades are not offered on this stock’s exchange',
    pt: 'Block trades não são oferecidos na bolsa desta ação',
  },
  block_lot_invalid: {
    status: 400,
    en: 'The lot must be a whole number of the stock’s lots, and the quantity a whole number of lots',
    pt: 'O lote deve ser um número inteiro de lotes da ação, e a quantidade um número inteiro de lotes',
  },
  block_offer_same_staff: {
    status: 403,
    en: 'A different staff member must approve this offer',
    pt: 'Outro membro da equipe deve aprovar esta oferta',
  },
  block_offer_already_decided: {
    status: 409,
    en: 'This offer has already been decided',
    pt: 'Esta oferta já foi decidida',
  },
  block_customer_not_found: { status: 404, en: 'Customer not found', pt: 'Cliente não encontrado' },
  // --- API keys (the Binance-shaped trading API) ---
  api_key_not_found: { status: 404, en: 'API key not found', pt: 'Chave de API não encontrada' },
  api_key_limit: {
    status: 400,
    en: 'You already have the maximum of {max} API keys: revoke one first',
    pt: 'Você já tem o máximo de {max} chaves de API: revogue uma primeiro',
  },
  api_key_ips_invalid: {
    status: 400,
    en: 'Enter up to 20 IPv4 or IPv6 addresses, separated by commas',
    pt: 'Informe até 20 endereços IPv4 ou IPv6, separados por vírgulas',
  },
  api_keys_unavailable: {
    status: 503,
    en: 'API keys are not available on this server',
    pt: 'Chaves de API não estão disponíveis neste servidor',
  },
  // --- IPO subscription (issue 26, features/ipo) ---
  ipo_not_found: { status: 404, en: 'IPO not found', pt: 'IPO não encontrado' },
  ipo_application_not_found: {
    status: 404,
    en: 'IPO application not found',
    pt: 'Pedido de subscrição de IPO não encontrado',
  },
  ipo_not_open: {
    status: 400,
    en: 'This IPO is not open for applications now',
    pt: 'Este IPO não está aberto para pedidos agora',
  },
  ipo_already_applied: {
    status: 409,
    en: 'You have already applied for this IPO',
    pt: 'Você já fez um pedido para este IPO',
  },
  ipo_lots_invalid: {
    status: 400,
    en: 'IPO bids are in a minimum lot and its multiples',
    pt: 'Os lances de IPO são em lote mínimo e seus múltiplos',
  },
  ipo_bid_incomplete: {
    status: 400,
    en: 'Each bid needs both its number of lots and its price',
    pt: 'Cada lance precisa do número de lotes e do preço',
  },
  ipo_price_out_of_band: {
    status: 400,
    en: 'The bid price must be within the price band ({low} – {high})',
    pt: 'O preço do lance deve estar dentro da faixa de preço ({low} – {high})',
  },
  ipo_cutoff_not_allowed: {
    status: 400,
    en: 'Only online (retail) applications can bid at cut-off',
    pt: 'Somente pedidos online (varejo) podem dar lance no preço de corte',
  },
  ipo_retail_limit: {
    status: 400,
    en: 'An online application can bid at most {max}; apply offline for more',
    pt: 'Um pedido online pode ser de no máximo {max}; faça um pedido offline para valores maiores',
  },
  ipo_offline_minimum: {
    status: 400,
    en: 'An offline application must be for more than {min}',
    pt: 'Um pedido offline deve ser de mais de {min}',
  },
  ipo_offline_closed: {
    status: 400,
    en: 'This IPO takes no offline applications',
    pt: 'Este IPO não aceita pedidos offline',
  },
  ipo_insufficient_funds: {
    status: 400,
    en: 'Account insufficient for the subscription amount',
    pt: 'Saldo da conta insuficiente para o valor da subscrição',
  },
  ipo_not_cancellable: {
    status: 400,
    en: 'This application can no longer be cancelled',
    pt: 'Este pedido não pode mais ser cancelado',
  },
  ipo_not_payable: {
    status: 400,
    en: 'This allotment cannot be paid: it is not waiting for payment or its window has passed',
    pt: 'Esta alocação não pode ser paga: não está aguardando pagamento ou o prazo terminou',
  },
  ipo_auto_apply_unavailable: {
    status: 403,
    en: 'Auto-subscribe is not offered on this platform',
    pt: 'A subscrição automática não é oferecida nesta plataforma',
  },
  ipo_draw_not_ready: {
    status: 404,
    en: 'The draw for this IPO has not taken place yet',
    pt: 'O sorteio deste IPO ainda não foi realizado',
  },
  ipo_symbol_invalid: {
    status: 400,
    en: 'Use 2 to 16 capital letters or digits, starting with a letter',
    pt: 'Use de 2 a 16 letras maiúsculas ou dígitos, começando com uma letra',
  },
  ipo_symbol_taken: {
    status: 409,
    en: 'This symbol is already used by another IPO or a listed stock',
    pt: 'Este código já é usado por outro IPO ou por uma ação listada',
  },
  ipo_band_invalid: {
    status: 400,
    en: 'The price band needs a positive low price at most the high price, with at most 2 decimals',
    pt: 'A faixa de preço precisa de um preço mínimo positivo, no máximo igual ao máximo, com até 2 casas decimais',
  },
  ipo_split_invalid: {
    status: 400,
    en: 'The retail, NII and QIB shares must add up to 100% and retail must be more than 0',
    pt: 'As parcelas de varejo, NII e QIB devem somar 100% e a de varejo deve ser maior que 0',
  },
  ipo_shares_invalid: {
    status: 400,
    en: 'The number of shares must be a positive whole number of lots',
    pt: 'O número de ações deve ser um número inteiro positivo de lotes',
  },
  ipo_lot_value_invalid: {
    status: 400,
    en: 'One lot at the top of the price band must cost from {min} to {max}',
    pt: 'Um lote no topo da faixa de preço deve custar de {min} a {max}',
  },
  ipo_dates_invalid: {
    status: 400,
    en: 'The issue must open on a future trading day and close on a later or the same trading day',
    pt: 'A oferta deve abrir em um dia útil futuro e fechar no mesmo dia útil ou em um posterior',
  },
  ipo_second_approver: {
    status: 403,
    en: 'A different staff member must approve or reject this IPO',
    pt: 'Outro membro da equipe deve aprovar ou rejeitar este IPO',
  },
  ipo_not_reviewable: {
    status: 400,
    en: 'This IPO is not waiting for approval',
    pt: 'Este IPO não está aguardando aprovação',
  },
  ipo_not_listable: {
    status: 400,
    en: 'This IPO can be listed only after its draw, on or after its listing day',
    pt: 'Este IPO só pode ser listado após o sorteio, a partir do dia da listagem',
  },
  // --- robots ---
  robot_not_found: { status: 404, en: 'Robot not found', pt: 'Robô não encontrado' },
  robot_run_not_found: { status: 404, en: 'Robot order not found', pt: 'Ordem de robô não encontrada' },
  robot_retired: {
    status: 400,
    en: 'This robot is no longer offered',
    pt: 'Este robô não está mais disponível',
  },
  robot_amount_below_minimum: {
    status: 400,
    en: "The amount is below this robot's start-up capital of {min}",
    pt: 'O valor está abaixo do capital inicial deste robô, de {min}',
  },
  robot_amount_above_limit: {
    status: 400,
    en: "The amount would take this run above the robot's single limit of {max}",
    pt: 'O valor levaria esta execução acima do limite único do robô, de {max}',
  },
  robot_not_running: {
    status: 400,
    en: 'This robot is not running',
    pt: 'Este robô não está em execução',
  },
  robot_params_invalid: {
    status: 400,
    en: 'These strategy parameters do not fit the pair (check the price range, amounts and periods)',
    pt: 'Estes parâmetros da estratégia não servem para o par (verifique a faixa de preço, os valores e os períodos)',
  },
  robot_limits_invalid: {
    status: 400,
    en: 'The start-up capital must be positive and no more than the single limit',
    pt: 'O capital inicial deve ser positivo e não maior que o limite único',
  },
  robot_template_second_approver: {
    status: 403,
    en: 'A different staff member must approve or reject this robot',
    pt: 'Outro membro da equipe deve aprovar ou rejeitar este robô',
  },
  robot_template_not_reviewable: {
    status: 400,
    en: 'This robot is not waiting for approval',
    pt: 'Este robô não está aguardando aprovação',
  },
  robot_template_not_changeable: {
    status: 400,
    en: 'Only an offered robot can be changed',
    pt: 'Só um robô oferecido pode ser alterado',
  },
  robot_move_pending: {
    status: 409,
    en: 'Received: the money is still being moved. It completes within moments; check the run in your records.',
    pt: 'Recebido: o dinheiro ainda está sendo movimentado. Isso se conclui em instantes; confira a execução nos seus registros.',
  },
  robot_market_closed: {
    status: 409,
    en: "This stock robot's market is closed: it can be stopped while the market is open (next open: {open})",
    pt: 'O mercado deste robô de ações está fechado: ele pode ser parado com o mercado aberto (próxima abertura: {open})',
  },
  robot_template_not_retirable: {
    status: 400,
    en: 'Only an approved robot can be retired',
    pt: 'Só um robô aprovado pode ser retirado',
  },
  // --- AI funds (features/funds) ---
  fund_not_found: { status: 404, en: 'Fund not found', pt: 'Fundo não encontrado' },
  fund_order_not_found: { status: 404, en: 'Fund order not found', pt: 'Ordem de fundo não encontrada' },
  fund_retired: {
    status: 400,
    en: 'This fund takes no new subscriptions',
    pt: 'Este fundo não aceita novas aplicações',
  },
  fund_amount_below_minimum: {
    status: 400,
    en: "The amount is below this fund's minimum subscription of {min}",
    pt: 'O valor está abaixo da aplicação mínima deste fundo, de {min}',
  },
  fund_units_insufficient: {
    status: 400,
    en: 'You do not hold that many free units of this fund',
    pt: 'Você não tem tantas cotas livres deste fundo',
  },
  fund_params_invalid: {
    status: 400,
    en: 'The market does not list enough stocks for this portfolio size',
    pt: 'O mercado não lista ações suficientes para este tamanho de carteira',
  },
  fund_second_approver: {
    status: 403,
    en: 'A different staff member must approve or reject this fund',
    pt: 'Outro membro da equipe deve aprovar ou rejeitar este fundo',
  },
  fund_not_reviewable: {
    status: 400,
    en: 'This fund is not waiting for approval',
    pt: 'Este fundo não está aguardando aprovação',
  },
  fund_not_changeable: {
    status: 400,
    en: 'Only an offered fund can be changed',
    pt: 'Só um fundo oferecido pode ser alterado',
  },
  fund_not_retirable: {
    status: 400,
    en: 'Only an approved fund can be retired',
    pt: 'Só um fundo aprovado pode ser retirado',
  },
  // --- VIP membership (features/vip) ---
  vip_trial_used: {
    status: 409,
    en: 'The free VIP trial can be claimed once, and yours has been claimed',
    pt: 'A avaliação gratuita do VIP pode ser resgatada uma vez, e a sua já foi resgatada',
  },
  vip_trial_not_offered: {
    status: 400,
    en: 'There is no free VIP trial on offer',
    pt: 'Não há avaliação gratuita do VIP disponível',
  },
  vip_plan_unknown: {
    status: 400,
    en: 'Choose one of the VIP plans on offer',
    pt: 'Escolha um dos planos VIP oferecidos',
  },
  vip_currency_not_sold: {
    status: 400,
    en: 'VIP is not sold in this currency',
    pt: 'O VIP não é vendido nesta moeda',
  },
  vip_required: {
    status: 403,
    en: 'This is for VIP members',
    pt: 'Isto é para membros VIP',
  },
  vip_customer_not_found: { status: 404, en: 'Customer not found', pt: 'Cliente não encontrado' },
  vip_advice_not_found: { status: 404, en: 'Post not found', pt: 'Publicação não encontrada' },
  // --- loans and the credit score (features/loans) ---
  loan_kyc_required: {
    status: 403,
    en: 'Verify your identity (KYC) before applying for a loan',
    pt: 'Verifique sua identidade (KYC) antes de pedir um empréstimo',
  },
  loan_no_credit_line: {
    status: 403,
    en: 'Your credit score does not give a credit line yet; see how to raise it',
    pt: 'Sua pontuação de crédito ainda não dá uma linha de crédito; veja como aumentá-la',
  },
  loan_above_limit: {
    status: 400,
    en: 'The amount is above your credit limit of {limit}',
    pt: 'O valor está acima do seu limite de crédito de {limit}',
  },
  loan_days_not_offered: {
    status: 400,
    en: 'Choose one of the borrowing periods offered',
    pt: 'Escolha um dos prazos oferecidos',
  },
  loan_open_exists: {
    status: 409,
    en: 'You already have an open loan; repay it before applying for another',
    pt: 'Você já tem um empréstimo em aberto; quite-o antes de pedir outro',
  },
  loan_not_found: { status: 404, en: 'Loan not found', pt: 'Empréstimo não encontrado' },
  loan_not_repayable: {
    status: 409,
    en: 'Only a loan in progress can be repaid',
    pt: 'Só um empréstimo em andamento pode ser quitado',
  },
  loan_already_decided: {
    status: 409,
    en: 'This loan has already been decided',
    pt: 'Este empréstimo já foi decidido',
  },
  loan_same_staff: {
    status: 409,
    en: 'A second approval must come from another staff member',
    pt: 'A segunda aprovação deve vir de outro membro da equipe',
  },
  loan_not_in_repayment: {
    status: 409,
    en: 'Only a repayment under review can be confirmed',
    pt: 'Só um pagamento em análise pode ser confirmado',
  },
  vote_already_cast: {
    status: 409,
    en: 'You have already voted on this stock today; you can vote again on the next trading day',
    pt: 'Você já votou nesta ação hoje; poderá votar de novo no próximo pregão',
  },
  chat_not_found: { status: 404, en: 'Conversation not found', pt: 'Conversa não encontrada' },
  chat_message_empty: {
    status: 400,
    en: 'Write a message or attach an image',
    pt: 'Escreva uma mensagem ou anexe uma imagem',
  },
  chat_message_too_long: {
    status: 400,
    en: 'A message can have at most 2,000 characters',
    pt: 'Uma mensagem pode ter no máximo 2.000 caracteres',
  },
  chat_rate_limited: {
    status: 429,
    en: 'You are sending messages too quickly. Please wait a minute.',
    pt: 'Você está enviando mensagens rápido demais. Aguarde um minuto.',
  },
  chat_image_type: {
    status: 400,
    en: 'The image must be a JPEG, PNG or WebP picture',
    pt: 'A imagem deve ser uma figura JPEG, PNG ou WebP',
  },
  chat_image_too_large: {
    status: 400,
    en: 'The image is too large (at most 5 MB)',
    pt: 'A imagem é grande demais (no máximo 5 MB)',
  },
  chat_closed: {
    status: 409,
    en: 'This conversation is closed',
    pt: 'Esta conversa está encerrada',
  },
  chat_assigned_elsewhere: {
    status: 409,
    en: 'Another staff member is handling this conversation',
    pt: 'Outro membro da equipe está atendendo esta conversa',
  },
  chat_not_assigned_to_you: {
    status: 409,
    en: 'Only the staff member handling this conversation can release it',
    pt: 'Só quem está atendendo esta conversa pode liberá-la',
  },
  vote_url_invalid: {
    status: 400,
    en: 'Enter an https:// address of at most 500 characters',
    pt: 'Informe um endereço https:// de no máximo 500 caracteres',
  },
} as const satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof ERRORS;

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(ERRORS, value);
}

/** The message in `lang`, its {placeholders} filled from `params` (a date, an amount…) when given. */
export function errorMessage(code: ErrorCode, lang: Lang, params?: Readonly<Record<string, string>>): string {
  const entry: ErrorEntry = ERRORS[code];
  const text = lang === 'pt-BR' ? entry.pt : entry.en;
  return params ? text.replace(/\{(\w+)\}/g, (whole, name: string) => params[name] ?? whole) : text;
}

export function errorStatus(code: ErrorCode): number {
  return ERRORS[code].status;
}
