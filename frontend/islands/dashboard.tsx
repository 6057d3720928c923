// Dashboard (/ signed in, /dashboard): the page's parts are in frontend/pages/dashboard/.
import { mountQueryIsland } from "../lib/query";
import { Dashboard } from "../pages/dashboard/Dashboard";

mountQueryIsland(Dashboard, "dashboard");
