// /care-circle: the people the user cares for and their circles; the page's parts are in
// frontend/pages/care-circle/.
import { mountQueryIsland } from "../lib/query";
import { CareCircle } from "../pages/care-circle/CareCircle";

mountQueryIsland(CareCircle, "care-circle");
