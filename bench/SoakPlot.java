import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;

/**
 * Draws the soak's samples (bench/soak.sh's CSV) as a PNG of four panels against minutes: heap after GC, threads,
 * open files and database connections, each from zero so that growth shows at its true size.
 * Run: {@code java bench/SoakPlot.java target/bench/soak.csv docs/images/soak.png "caption"}.
 */
public class SoakPlot {

    static final int WIDTH = 1200;
    static final int HEIGHT = 800;

    public static void main(String[] args) throws Exception {
        System.setProperty("java.awt.headless", "true");
        List<double[]> rows = Files.readAllLines(Path.of(args[0])).stream().skip(1).filter(l -> !l.isBlank())
                .map(l -> java.util.Arrays.stream(l.split(",")).mapToDouble(Double::parseDouble).toArray()).toList();
        String caption = args.length > 2 ? args[2] : "";
        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, WIDTH, HEIGHT);
        String[] titles = {"Heap after GC (MB)", "Live threads", "Open files", "Database connections"};
        Color[] colors = {new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0x9467bd)};
        for (int i = 0; i < 4; i++) {
            panel(g, rows, i + 1, titles[i], colors[i], 60 + (i % 2) * 580, 40 + (i / 2) * 360, 500, 280);
        }
        g.setColor(Color.DARK_GRAY);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 14));
        g.drawString(caption, 60, HEIGHT - 20);
        g.dispose();
        Path out = Path.of(args[1]);
        Files.createDirectories(out.toAbsolutePath().getParent());
        ImageIO.write(image, "png", out.toFile());
    }

    /** One series (CSV column {@code column}) in a box at x, y of w by h, minutes along, zero to a round maximum up. */
    static void panel(Graphics2D g, List<double[]> rows, int column, String title, Color color, int x, int y, int w, int h) {
        double maxMinute = Math.max(1, rows.get(rows.size() - 1)[0]);
        double max = niceCeiling(rows.stream().mapToDouble(r -> r[column]).max().orElse(1) * 1.15);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
        g.setColor(Color.BLACK);
        g.drawString(title, x, y + 4);
        int top = y + 20;
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        for (int t = 0; t <= 4; t++) {
            int ty = top + h - t * h / 4;
            g.setColor(new Color(0xe0e0e0));
            g.drawLine(x, ty, x + w, ty);
            g.setColor(Color.DARK_GRAY);
            String label = max >= 10 ? String.valueOf(Math.round(max * t / 4)) : String.format("%.1f", max * t / 4);
            g.drawString(label, x - 8 - g.getFontMetrics().stringWidth(label), ty + 4);
        }
        int step = maxMinute > 20 ? 5 : maxMinute > 8 ? 2 : 1;
        for (int m = 0; m <= maxMinute; m += step) {
            int tx = x + (int) (m / maxMinute * w);
            g.setColor(Color.DARK_GRAY);
            g.drawLine(tx, top + h, tx, top + h + 4);
            String label = String.valueOf(m);
            g.drawString(label, tx - g.getFontMetrics().stringWidth(label) / 2, top + h + 18);
        }
        g.drawString("minutes", x + w - 46, top + h + 34);
        g.setColor(Color.GRAY);
        g.drawRect(x, top, w, h);
        g.setColor(color);
        g.setStroke(new BasicStroke(2.2f));
        int px = -1;
        int py = -1;
        for (double[] r : rows) {
            int cx = x + (int) (r[0] / maxMinute * w);
            int cy = top + h - (int) (r[column] / max * h);
            if (px >= 0) {
                g.drawLine(px, py, cx, cy);
            }
            g.fillOval(cx - 3, cy - 3, 6, 6);
            px = cx;
            py = cy;
        }
        g.setStroke(new BasicStroke(1f));
    }

    /** 1, 2 or 5 times a power of ten, at least {@code value}. */
    static double niceCeiling(double value) {
        if (value <= 0) {
            return 1;
        }
        double power = Math.pow(10, Math.floor(Math.log10(value)));
        for (double m : new double[] {1, 2, 5, 10}) {
            if (m * power >= value) {
                return m * power;
            }
        }
        return 10 * power;
    }
}
