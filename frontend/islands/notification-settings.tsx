// /settings, "Emails and text messages": which notices also come by email or text (the
// settings page's second island; its props are rendered with the page).
import { NotificationSettings } from "../components/NotificationSettings";
import { mountQueryIsland } from "../lib/query";

mountQueryIsland(NotificationSettings, "notification-settings");
