import {
  IconAlarm,
  IconBell,
  IconCalendarEvent,
  IconCurrencyBitcoin,
  IconFilterSearch,
  IconHeadset,
  IconLayoutDashboard,
  IconListSearch,
  IconNews,
  IconSpeakerphone,
  IconWorld,
  IconChartCandle,
  IconStairsUp,
  IconTargetArrow,
  IconTrendingDown,
  IconUserCircle,
  IconShieldLock,
  IconWaveSine,
  type Icon,
} from '@tabler/icons-react';
import type { MenuEntry } from '@signalboard/core';

/** The icon of each menu entry (spec §3 "Menu item: name, icon, link"). */
export const MENU_ICONS: Record<MenuEntry['link'], Icon> = {
  '/dashboard/main': IconLayoutDashboard,
  '/dashboard/symbollookup': IconListSearch,
  '/dashboard/dropscanner': IconTrendingDown,
  '/dashboard/cryptoscanner': IconCurrencyBitcoin,
  '/dashboard/options2': IconTargetArrow,
  '/dashboard/allstockscanner': IconStairsUp,
  '/dashboard/stockshort': IconWaveSine,
  '/dashboard/drop': IconAlarm,
  '/dashboard/scans': IconFilterSearch,
  '/dashboard/calendar': IconCalendarEvent,
  '/dashboard/support': IconHeadset,
  '/dashboard/alert': IconBell,
  // The second group (screens the spec's menu does not list).
  '/dashboard/options': IconChartCandle,
  '/dashboard/generalnews': IconWorld,
  '/dashboard/stocknews': IconNews,
  '/dashboard/trumpnews': IconSpeakerphone,
  // At the foot, beside Sign Out.
  '/dashboard/account': IconUserCircle,
  '/dashboard/admin': IconShieldLock,
};
