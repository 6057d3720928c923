// The signed-in user's menu in the navigation bar (spec "Navigation bar"): avatar, name, a
// Provider/Client badge (Admin for staff), and Dashboard, Messages, Care circle (clients), Switch to Client/Provider (not for admins),
// Settings (/settings) and Sign Out; on small screens the same items in a side drawer.
// The dropdown is a small menu button of our own (WAI-ARIA menu button pattern): Radix's
// DropdownMenu and its positioning engine were 15 KB gzipped on every signed-in page.
import { t } from "@lingui/core/macro";
import * as Dialog from "@radix-ui/react-dialog";
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { Avatar } from "../components/Avatar";
import { errorMessage, isUnauthorizedError } from "../lib/api";
import { mountQueryIsland, useApiWrite } from "../lib/query";
import { toast } from "../lib/toast";
import "../styles/user-menu.css";

type UserType = "client" | "provider" | "admin";

interface UserMenuProps {
  firstName: string;
  email: string;
  profileImageUrl: string;
  userType: UserType;
  isAdmin: boolean;
  /** The top bar's links for this role (accounts/templatetags/identity.py), repeated in the drawer. */
  navLinks: { label: string; href: string }[];
}

type Write = ReturnType<typeof useApiWrite>;

async function switchUserType(write: Write, current: UserType): Promise<void> {
  const target = current === "provider" ? "client" : "provider";
  try {
    await write.put("/api/auth/user-type", { userType: target });
  } catch (error) {
    if (isUnauthorizedError(error)) return; // lib/query's
    const reason = errorMessage(error);
    toast({ title: t`Error`, description: t`Failed to switch user type: ${reason}`, variant: "destructive" });
    return;
  }
  toast({ title: t`User Type Updated`, description: t`Your account type has been switched successfully.` });
  window.setTimeout(() => window.location.reload(), 1000);
}

async function signOutEverywhere(write: Write): Promise<void> {
  try {
    await write.post("/api/auth/logout");
  } catch (error) {
    console.error("Sign out failed", error);
  }
  window.location.assign("/");
}

const ITEM = '[role="menuitem"]';

/** A menu button: Enter, Space or ArrowDown open it on the first item, ArrowUp on the last;
 * arrows, Home and End move; Escape closes it and focus goes back to the button; a click
 * outside or Tab closes it. */
function AccountMenu({ trigger, label, children }: { trigger: ReactNode; label: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const [focusOnOpen, setFocusOnOpen] = useState<"first" | "last">("first");
  const menuId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);

  const items = () => Array.from(menuRef.current?.querySelectorAll<HTMLElement>(ITEM) ?? []);

  useEffect(() => {
    if (!open) return;
    const list = items();
    (focusOnOpen === "last" ? list[list.length - 1] : list[0])?.focus();
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, [open, focusOnOpen]);

  const show = (where: "first" | "last") => {
    setFocusOnOpen(where);
    setOpen(true);
  };
  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  };

  const onButtonKeyDown = (event: KeyboardEvent) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      show(event.key === "ArrowUp" ? "last" : "first");
    }
  };

  const onMenuKeyDown = (event: KeyboardEvent) => {
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLElement);
    const move: Record<string, number> = {
      ArrowDown: (at + 1) % list.length,
      ArrowUp: (at - 1 + list.length) % list.length,
      Home: 0,
      End: list.length - 1,
    };
    if (event.key in move) {
      event.preventDefault();
      list[move[event.key]!]?.focus();
    } else if (event.key === "Escape") {
      event.preventDefault();
      close(true);
    } else if (event.key === "Tab") {
      close(false);
    } else if (event.key === " " && (document.activeElement as HTMLElement | null)?.matches(ITEM)) {
      event.preventDefault();
      (document.activeElement as HTMLElement).click();
    }
  };

  return (
    <div className="usermenu-dropdown" ref={rootRef}>
      <button
        type="button"
        ref={buttonRef}
        className="usermenu-trigger"
        data-testid="usermenu-trigger"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => (open ? close(false) : show("first"))}
        onKeyDown={onButtonKeyDown}
      >
        {trigger}
      </button>
      {open && (
        <div
          id={menuId}
          ref={menuRef}
          role="menu"
          aria-label={label}
          className="usermenu-content"
          tabIndex={-1}
          onKeyDown={onMenuKeyDown}
          onClick={(event) => {
            if ((event.target as HTMLElement).closest(ITEM)) setOpen(false);
          }}
        >
          {children}
        </div>
      )}
    </div>
  );
}

function UserMenu(props: UserMenuProps) {
  const [drawerOpen, setDrawerOpen] = useState(false);
  const write = useApiWrite();
  // Signing out without a session still just goes home (no "logged out" toast).
  const signOut = useApiWrite([], { ownsUnauthorized: true });
  const name = props.firstName.trim() || props.email;
  // Staff are neither: an admin is badged Admin (and cannot switch).
  const badge = props.isAdmin ? t`Admin` : props.userType === "provider" ? t`Provider` : t`Client`;
  const switchLabel = props.userType === "provider" ? t`Switch to Client` : t`Switch to Provider`;

  const identity = (
    <>
      <Avatar firstName={props.firstName} email={props.email} imageUrl={props.profileImageUrl} size="sm" />
      <span className="usermenu-name" data-testid="usermenu-name">
        {name}
      </span>
      <span
        className={`badge usermenu-badge${props.isAdmin ? " usermenu-badge-admin" : ""}`}
        data-testid="usermenu-badge"
      >
        {badge}
      </span>
    </>
  );

  return (
    <div className="usermenu">
      <AccountMenu
        label={t`Account`}
        trigger={
          <>
            {identity}
            <span className="visually-hidden"> {t`account menu`}</span>
          </>
        }
      >
        <div className="usermenu-label" role="presentation">
          {props.email}
        </div>
        <a role="menuitem" tabIndex={-1} className="usermenu-item" href="/dashboard">
          {t`Dashboard`}
        </a>
        <a role="menuitem" tabIndex={-1} className="usermenu-item" href="/messages">
          {t`Messages`}
        </a>
        <a role="menuitem" tabIndex={-1} className="usermenu-item" href="/calendar">
          {t`Calendar`}
        </a>
        {props.userType === "provider" && (
          <a role="menuitem" tabIndex={-1} className="usermenu-item" href="/schedule">
            {t`My schedule`}
          </a>
        )}
        {props.userType === "client" && !props.isAdmin && (
          <a role="menuitem" tabIndex={-1} className="usermenu-item" href="/care-circle">
            {t`Care circle`}
          </a>
        )}
        {!props.isAdmin && (
          <button
            type="button"
            role="menuitem"
            tabIndex={-1}
            className="usermenu-item"
            onClick={() => void switchUserType(write, props.userType)}
          >
            {switchLabel}
          </button>
        )}
        <a role="menuitem" tabIndex={-1} className="usermenu-item" href="/settings">
          {t`Settings`}
        </a>
        <div role="separator" className="usermenu-separator" />
        <button
          type="button"
          role="menuitem"
          tabIndex={-1}
          className="usermenu-item"
          onClick={() => void signOutEverywhere(signOut)}
        >
          {t`Sign Out`}
        </button>
      </AccountMenu>

      <Dialog.Root open={drawerOpen} onOpenChange={setDrawerOpen}>
        <Dialog.Trigger className="usermenu-drawer-trigger" data-testid="usermenu-drawer-trigger">
          <span aria-hidden="true" className="hamburger">
            &#9776;
          </span>{" "}
          {t`Menu`}
        </Dialog.Trigger>
        <Dialog.Portal>
          <Dialog.Overlay className="drawer-overlay" />
          <Dialog.Content className="drawer" aria-describedby={undefined}>
            <div className="drawer-header">
              <Dialog.Title className="drawer-title">{t`Menu`}</Dialog.Title>
              <Dialog.Close className="drawer-close" aria-label={t`Close menu`}>
                <span aria-hidden="true">&times;</span>
              </Dialog.Close>
            </div>
            <div className="drawer-identity">{identity}</div>
            <nav aria-label={t`Account`}>
              <ul className="drawer-links">
                {props.navLinks.map((link) => (
                  <li key={link.href}>
                    <a href={link.href}>{link.label}</a>
                  </li>
                ))}
                {!props.navLinks.some((link) => link.href === "/calendar") && (
                  <li>
                    <a href="/calendar">{t`Calendar`}</a>
                  </li>
                )}
                {props.userType === "client" && !props.isAdmin && (
                  <li>
                    <a href="/care-circle">{t`Care circle`}</a>
                  </li>
                )}
              </ul>
            </nav>
            <div className="drawer-actions">
              {!props.isAdmin && (
                <button
                  type="button"
                  className="button button-secondary"
                  onClick={() => void switchUserType(write, props.userType)}
                >
                  {switchLabel}
                </button>
              )}
              <a className="button button-secondary" href="/settings">
                {t`Settings`}
              </a>
              <button type="button" className="button button-primary" onClick={() => void signOutEverywhere(signOut)}>
                {t`Sign Out`}
              </button>
            </div>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </div>
  );
}

mountQueryIsland(UserMenu, "user-menu");
