import { StaticImage } from "@/components/ui/static-image";
import { cn } from "@/lib/utils";

// Fictional customer wordmarks, our own SVGs in public/logos.
export const COMPANY_LOGOS = [
  { src: "/logos/northwind.svg", name: "Northwind", width: 165 },
  { src: "/logos/acme-cloud.svg", name: "Acme Cloud", width: 179 },
  { src: "/logos/lumina.svg", name: "Lumina", width: 125 },
  { src: "/logos/vertex-labs.svg", name: "Vertex Labs", width: 192 },
  { src: "/logos/brightpath.svg", name: "Brightpath", width: 179 },
  { src: "/logos/orbital.svg", name: "Orbital", width: 138 },
] as const;

export function CompanyLogoRow({ className, label }: { className?: string; label: string }) {
  return (
    <ul
      aria-label={label}
      className={cn("flex flex-wrap items-center justify-center gap-x-10 gap-y-6", className)}
    >
      {COMPANY_LOGOS.map((logo) => (
        <li key={logo.name}>
          <StaticImage
            src={logo.src}
            alt={logo.name}
            width={logo.width}
            height={36}
            className="h-7 w-auto opacity-70 grayscale transition-opacity hover:opacity-100"
          />
        </li>
      ))}
    </ul>
  );
}
