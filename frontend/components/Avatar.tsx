// A person's picture, else the first letter of their first name or email, else "U" (spec nav).
export function Avatar({
  firstName,
  email,
  imageUrl,
  size = "md",
}: {
  firstName?: string;
  email?: string;
  imageUrl?: string;
  size?: "sm" | "md" | "lg";
}) {
  if (imageUrl) {
    return <img className={`avatar avatar-${size}`} src={imageUrl} alt="" />;
  }
  const letter = (firstName?.trim()[0] ?? email?.trim()[0] ?? "U").toUpperCase();
  return (
    <span className={`avatar avatar-${size}`} aria-hidden="true">
      {letter}
    </span>
  );
}
