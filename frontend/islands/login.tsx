// /login: sign in or sign up; the page's parts are in frontend/pages/login/.
import { mountIsland } from "../lib/mount";
import { Login } from "../pages/login/Login";

mountIsland(Login, "login");
