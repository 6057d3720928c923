// Mounted by base.html on every page: the one toast region.
import { renderIsland } from "../lib/mount";
import { Toaster } from "../lib/toast";

const root = document.getElementById("toaster-root");
if (root) renderIsland(root, <Toaster />, "toaster");
