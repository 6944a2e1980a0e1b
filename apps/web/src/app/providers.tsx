// App-wide providers: TanStack Query, i18n, and antd-mobile's locale following the chosen language.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
// antd-mobile by component (not the package index), so that the first load gets only these.
import ConfigProvider from 'antd-mobile/es/components/config-provider';
import 'antd-mobile/es/global';
import enUSLocale from 'antd-mobile/es/locales/en-US';
import ptBRLocale from 'antd-mobile/es/locales/pt-BR';
import { type ReactNode, useEffect } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { i18n } from '../i18n/index.ts';
import { ApiError } from './request.ts';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // An ApiError is the server's answer: asking again gives the same answer.
      retry: (failureCount, error) => !(error instanceof ApiError) && failureCount < 2,
      refetchOnWindowFocus: false,
    },
  },
});

function LocaleBridge({ children }: { children: ReactNode }) {
  const { i18n: instance } = useTranslation();
  const language = instance.language;
  useEffect(() => {
    // Server messages come in the `lang` header's language: refetch everything in the new one.
    const refetchAll = () => void queryClient.invalidateQueries();
    i18n.on('languageChanged', refetchAll);
    return () => i18n.off('languageChanged', refetchAll);
  }, []);
  return <ConfigProvider locale={language === 'pt-BR' ? ptBRLocale : enUSLocale}>{children}</ConfigProvider>;
}

export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <I18nextProvider i18n={i18n}>
        <LocaleBridge>{children}</LocaleBridge>
      </I18nextProvider>
    </QueryClientProvider>
  );
}
