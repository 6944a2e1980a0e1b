import { Flex, Typography } from 'antd';
import type { ReactNode } from 'react';

export function PageTitle({ title, extra }: { title: string; extra?: ReactNode }) {
  return (
    <Flex align="center" justify="space-between" wrap gap={12} style={{ marginBottom: 16 }}>
      <Typography.Title level={3} style={{ margin: 0 }}>
        {title}
      </Typography.Title>
      {extra}
    </Flex>
  );
}
