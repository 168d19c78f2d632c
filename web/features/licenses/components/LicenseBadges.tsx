/**
 * The license badges of SPEC.md §2 in the order `licenseStatus` gives them. The theme
 * (web/theme.ts) keeps their text above 4.5:1 on the tint.
 */
import { Badge, Group } from '@mantine/core';
import { licenseStatus, type LicenseBadge, type LicenseDates } from '../../../../common/status';

const LICENSE_BADGES: Record<LicenseBadge, { color: string; text: string }> = {
  NOT_APPROVED: { color: 'orange', text: 'Not approved' },
  APPROVED: { color: 'blue', text: 'Approved' },
  VALID: { color: 'teal', text: 'Valid' },
  REJECTED: { color: 'red', text: 'Rejected' },
  EXPIRED: { color: 'gray', text: 'Expired' },
  EXTENDED: { color: 'green', text: 'Extended' },
  EXTENSION_REQUESTED: { color: 'violet', text: 'Extension requested' },
  EXPIRY_ACKNOWLEDGED: { color: 'indigo', text: 'Expiry acknowledged' },
};

export function LicenseBadges({ license, now, size = 'sm' }: { license: LicenseDates; now: Date; size?: 'sm' | 'md' }) {
  const { badges } = licenseStatus(license, now);
  return (
    <Group gap={6} wrap="wrap">
      {badges.map((badge) => {
        const { color, text } = LICENSE_BADGES[badge];
        return (
          <Badge key={badge} color={color} variant="light" size={size}>
            {text}
          </Badge>
        );
      })}
    </Group>
  );
}
