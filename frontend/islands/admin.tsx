// /admin (spec section 2 "Admin dashboard"): the page's parts are in frontend/pages/admin/.
import { mountQueryIsland } from "../lib/query";
import { AdminDashboard } from "../pages/admin/AdminDashboard";

mountQueryIsland(AdminDashboard, "admin");
