// The approve / reject pair of a "second staff member" decision (adjustments, IPO, block, launchpad, robots, AI funds
// desks): both buttons are disabled on an item the signed-in staff member created themselves, with a
// tooltip saying why — the server refuses it too; this only keeps the console from offering it.
import { CheckOutlined, CloseOutlined } from '@ant-design/icons';
import { Button, Flex, Tooltip } from 'antd';

export function SecondApprovalButtons({
  isMine,
  notYourOwn,
  approveText,
  rejectText,
  onApprove,
  onReject,
  testIdSuffix,
  testIdPrefix,
}: {
  /** The signed-in staff member created (or proposed) the item. */
  isMine: boolean;
  notYourOwn: string;
  approveText: string;
  rejectText: string;
  onApprove: () => void;
  onReject: () => void;
  /** Buttons get data-testid `${prefix}-approve-${suffix}` and `${prefix}-reject-${suffix}`. */
  testIdPrefix: string;
  testIdSuffix: string | number;
}) {
  const buttons = (
    <Flex gap={8}>
      <Button
        size="small"
        danger
        icon={<CloseOutlined />}
        disabled={isMine}
        data-testid={`${testIdPrefix}-reject-${testIdSuffix}`}
        onClick={onReject}
      >
        {rejectText}
      </Button>
      <Button
        size="small"
        type="primary"
        icon={<CheckOutlined />}
        disabled={isMine}
        data-testid={`${testIdPrefix}-approve-${testIdSuffix}`}
        onClick={onApprove}
      >
        {approveText}
      </Button>
    </Flex>
  );
  return isMine ? <Tooltip title={notYourOwn}>{buttons}</Tooltip> : buttons;
}
