// The signed-in user's menu in the navigation bar (spec "Navigation bar"): avatar, name, a
// Provider/Client badge (Admin for staff), and Dashboard, Messages, Switch to Client/Provider (not for admins),
// Settings (/settings) and Sign Out; on small screens the same items in a side drawer.
import * as Dialog from "@radix-ui/react-dialog";
import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { useState } from "react";
import { Avatar } from "../components/Avatar";
import { api, errorMessage, handleLoggedOut, isUnauthorizedError } from "../lib/api";
import { mountIsland } from "../lib/mount";
import { toast } from "../lib/toast";
import "../styles/usermenu.css";

type UserType = "client" | "provider" | "admin";

interface UserMenuProps {
  firstName: string;
  email: string;
  profileImageUrl: string;
  userType: UserType;
  isAdmin: boolean;
}

async function switchUserType(current: UserType): Promise<void> {
  const target = current === "provider" ? "client" : "provider";
  try {
    await api.put("/api/auth/user-type", { userType: target });
  } catch (error) {
    if (isUnauthorizedError(error)) {
      handleLoggedOut();
      return;
    }
    toast({ title: "Error", description: `Failed to switch user type: ${errorMessage(error)}`, variant: "destructive" });
    return;
  }
  toast({ title: "User Type Updated", description: "Your account type has been switched successfully." });
  window.setTimeout(() => window.location.reload(), 1000);
}

async function signOutEverywhere(): Promise<void> {
  try {
    await api.post("/api/auth/logout");
  } catch (error) {
    console.error("Sign out failed", error);
  }
  window.location.assign("/");
}

function UserMenu(props: UserMenuProps) {
  const [drawerOpen, setDrawerOpen] = useState(false);
  const name = props.firstName.trim() || props.email;
  // Staff are neither: an admin is badged Admin (and cannot switch).
  const badge = props.isAdmin ? "Admin" : props.userType === "provider" ? "Provider" : "Client";
  const switchLabel = props.userType === "provider" ? "Switch to Client" : "Switch to Provider";

  const identity = (
    <>
      <Avatar firstName={props.firstName} email={props.email} imageUrl={props.profileImageUrl} size="sm" />
      <span className="usermenu-name" data-testid="usermenu-name">
        {name}
      </span>
      <span className={`badge usermenu-badge${props.isAdmin ? " usermenu-badge-admin" : ""}`} data-testid="usermenu-badge">
        {badge}
      </span>
    </>
  );

  return (
    <div className="usermenu">
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger className="usermenu-trigger" data-testid="usermenu-trigger">
          {identity}
          <span className="visually-hidden"> account menu</span>
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content className="usermenu-content" align="end" sideOffset={6}>
            <DropdownMenu.Label className="usermenu-label">{props.email}</DropdownMenu.Label>
            <DropdownMenu.Item asChild className="usermenu-item">
              <a href="/dashboard">Dashboard</a>
            </DropdownMenu.Item>
            <DropdownMenu.Item asChild className="usermenu-item">
              <a href="/messages">Messages</a>
            </DropdownMenu.Item>
            <DropdownMenu.Item asChild className="usermenu-item">
              <a href="/calendar">Calendar</a>
            </DropdownMenu.Item>
            {!props.isAdmin && (
              <DropdownMenu.Item className="usermenu-item" onSelect={() => void switchUserType(props.userType)}>
                {switchLabel}
              </DropdownMenu.Item>
            )}
            <DropdownMenu.Item asChild className="usermenu-item">
              <a href="/settings">Settings</a>
            </DropdownMenu.Item>
            <DropdownMenu.Separator className="usermenu-separator" />
            <DropdownMenu.Item className="usermenu-item" onSelect={() => void signOutEverywhere()}>
              Sign Out
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>

      <Dialog.Root open={drawerOpen} onOpenChange={setDrawerOpen}>
        <Dialog.Trigger className="usermenu-drawer-trigger" data-testid="usermenu-drawer-trigger">
          <span aria-hidden="true" className="hamburger">
            &#9776;
          </span>{" "}
          Menu
        </Dialog.Trigger>
        <Dialog.Portal>
          <Dialog.Overlay className="drawer-overlay" />
          <Dialog.Content className="drawer" aria-describedby={undefined}>
            <div className="drawer-header">
              <Dialog.Title className="drawer-title">Menu</Dialog.Title>
              <Dialog.Close className="drawer-close" aria-label="Close menu">
                <span aria-hidden="true">&times;</span>
              </Dialog.Close>
            </div>
            <div className="drawer-identity">{identity}</div>
            <nav aria-label="Account">
              <ul className="drawer-links">
                <li>
                  <a href="/dashboard">Dashboard</a>
                </li>
                <li>
                  <a href="/request-service">Request Service</a>
                </li>
                <li>
                  <a href="/providers">Providers</a>
                </li>
                <li>
                  <a href="/messages">Messages</a>
                </li>
                <li>
                  <a href="/calendar">Calendar</a>
                </li>
                {props.isAdmin && (
                  <li>
                    <a href="/admin">Admin</a>
                  </li>
                )}
              </ul>
            </nav>
            <div className="drawer-actions">
              {!props.isAdmin && (
                <button type="button" className="button button-secondary" onClick={() => void switchUserType(props.userType)}>
                  {switchLabel}
                </button>
              )}
              <a className="button button-secondary" href="/settings">
                Settings
              </a>
              <button type="button" className="button button-primary" onClick={() => void signOutEverywhere()}>
                Sign Out
              </button>
            </div>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </div>
  );
}

mountIsland(UserMenu, "usermenu-root", "usermenu-props");
