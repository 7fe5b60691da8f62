// Both toast regions: Notifications (the newsletter's toasts) and the alternate viewport (the contact form's).
import { useEffect } from 'react';
import { NOTIFICATIONS_TOASTER } from '../constants.ts';
import { markRegionsMounted } from '../lib/toasts.ts';
import { Toaster } from './Toaster.tsx';

export interface ToastRegionsProps {
  /** Accessible name of the alternate viewport (the Notifications region's is NOTIFICATIONS_TOASTER.label). */
  alertsLabel: string;
  /** Accessible name of each toast's close button. */
  dismissLabel: string;
}

export function ToastRegions({ alertsLabel, dismissLabel }: ToastRegionsProps) {
  useEffect(markRegionsMounted, []);
  return (
    <>
      <Toaster name="notifications" label={NOTIFICATIONS_TOASTER.label} dismissLabel={dismissLabel} />
      <Toaster name="alert" label={alertsLabel} dismissLabel={dismissLabel} />
    </>
  );
}
