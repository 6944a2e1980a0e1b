// The landing page: who you are, what your role lets you do, and whether money here is virtual.
import { Alert, Button, Card, Col, Descriptions, List, Row, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCurrentStaff } from '../../app/current-staff.tsx';
import { sectionsFor } from '../../app/roles.ts';
import { PageTitle } from '../../shared/page-title.tsx';

export default function DashboardPage() {
  const { t } = useTranslation();
  const { staff, mode } = useCurrentStaff();
  const isPaper = mode === 'paper';
  const sections = sectionsFor(staff.role).filter((section) => section.key !== 'dashboard');

  return (
    <>
      <PageTitle title={t('dashboard.welcome', { username: staff.username })} />
      <Alert
        data-testid="mode-banner"
        type={isPaper ? 'warning' : 'error'}
        showIcon
        title={t(isPaper ? 'mode.paper' : 'mode.live')}
        description={t(isPaper ? 'mode.paperHint' : 'mode.liveHint')}
        style={{ marginBottom: 24 }}
      />
      <Row gutter={[24, 24]}>
        <Col xs={24} lg={10}>
          <Card title={t('dashboard.account')}>
            <Descriptions
              column={1}
              size="small"
              data-testid="whoami"
              items={[
                { key: 'username', label: t('dashboard.username'), children: staff.username },
                { key: 'id', label: t('dashboard.staffId'), children: String(staff.id) },
                {
                  key: 'role',
                  label: t('dashboard.role'),
                  children: (
                    <div>
                      <Tag color="cyan">{t(`roles.${staff.role}`)}</Tag>
                      <Typography.Text type="secondary">{t(`roles.${staff.role}Hint`)}</Typography.Text>
                    </div>
                  ),
                },
                {
                  key: 'mode',
                  label: t('dashboard.mode'),
                  children: <Tag color={isPaper ? 'gold' : 'red'}>{t(isPaper ? 'mode.paper' : 'mode.live')}</Tag>,
                },
              ]}
            />
          </Card>
        </Col>
        <Col xs={24} lg={14}>
          <Card title={t('dashboard.sections')}>
            <List
              dataSource={sections}
              renderItem={(section) => (
                <List.Item
                  extra={
                    <Link to={section.path}>
                      <Button size="small">{t('dashboard.open')}</Button>
                    </Link>
                  }
                >
                  <Typography.Text>{t(`menu.${section.key}`)}</Typography.Text>
                </List.Item>
              )}
            />
            <Typography.Paragraph type="secondary" style={{ marginTop: 16, marginBottom: 0 }}>
              {t('dashboard.auditNote')}
            </Typography.Paragraph>
          </Card>
        </Col>
      </Row>
    </>
  );
}
