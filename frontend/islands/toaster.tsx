// Mounted by base.html on every page: the one toast region.
import { createRoot } from "react-dom/client";
import { Toaster } from "../lib/toast";

const root = document.getElementById("toaster-root");
if (root) createRoot(root).render(<Toaster />);
