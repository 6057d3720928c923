// A person's picture, else the first letter of their first name or email, else "U" (spec nav).
// `letter` stands in for someone who is not a person (the System Notifications conversation).
export function Avatar({
  firstName,
  email,
  imageUrl,
  letter,
  size = "md",
}: {
  firstName?: string;
  email?: string;
  imageUrl?: string;
  letter?: string;
  size?: "sm" | "md" | "lg";
}) {
  if (imageUrl) {
    return <img className={`avatar avatar-${size}`} src={imageUrl} alt="" referrerPolicy="no-referrer" />;
  }
  const shown = (letter ?? firstName?.trim()[0] ?? email?.trim()[0] ?? "U").toUpperCase();
  return (
    <span className={`avatar avatar-${size}`} aria-hidden="true">
      {shown}
    </span>
  );
}
