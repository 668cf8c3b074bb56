import {
  IconAlarm,
  IconBell,
  IconCalendarEvent,
  IconCurrencyBitcoin,
  IconHeadset,
  IconLayoutDashboard,
  IconListSearch,
  IconStairsUp,
  IconTargetArrow,
  IconTrendingDown,
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
  '/dashboard/calendar': IconCalendarEvent,
  '/dashboard/support': IconHeadset,
  '/dashboard/alert': IconBell,
  // Screens without a menu entry.
  '/dashboard/generalnews': IconLayoutDashboard,
  '/dashboard/stocknews': IconLayoutDashboard,
  '/dashboard/trumpnews': IconLayoutDashboard,
  '/dashboard/options': IconLayoutDashboard,
};
